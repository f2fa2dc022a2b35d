/**
 * The one line to print when the server cannot listen for a reason the operator can fix (the port is taken,
 * or needs privileges), or `undefined` for any other error.
 */
export function listenProblem(error: unknown): string | undefined {
  const { code, port, address } = (error ?? {}) as { code?: unknown; port?: unknown; address?: unknown };
  if (code === 'EADDRINUSE')
    return `Port ${port} is in use; set PORT=<another port> (or stop what is using it).`;
  if (code === 'EACCES')
    return `Port ${port} needs privileges this process does not have; set PORT=<a port above 1023>.`;
  if (code === 'EADDRNOTAVAIL')
    return `${address} is not an address of this machine; set HOST=<one of its addresses> (e.g. 127.0.0.1).`;
  return undefined;
}
