import { TesseraError } from '@tessera/core';

/** A server's answer to a call was an error (`isError`, or a JSON-RPC error): the model reads the message. */
export class McpToolError extends TesseraError {
  constructor(message: string, options?: ErrorOptions) {
    super('mcp_tool_error', message, options);
  }
}

/** The server of a tool is not connected: it died, or cannot be reached, and is being reconnected. */
export class McpServerUnavailableError extends TesseraError {
  constructor(message: string, options?: ErrorOptions) {
    super('mcp_server_unavailable', message, options);
  }
}
