// The processes of bench:streams that are not the server, so that the server's event loop is measured
// alone: `holder` opens event streams and reads them (or, the slow ones, barely: 1 KB a second), resuming
// each with its last id when the server cuts it; `probe` asks GET /health at a fixed rate (open loop: a
// request is timed from when it was due, so a stalled server shows in every request it delayed).
// Driven by bench/streams.ts over IPC.
import { Agent, get, type IncomingMessage } from 'node:http';

type Spec = { url: string; token: string; count: number; slow: boolean };
type Message =
  | { type: 'open'; specs: Spec[] }
  | { type: 'stats' }
  | { type: 'stop' }
  | { type: 'start'; url: string; everyMs: number };

const now = () => performance.timeOrigin + performance.now();
const FRAME_END = Buffer.from('\n\n');
const ID_LINE = Buffer.from('\nid: ');
const send = (message: object) => process.send?.(message);
const role = process.argv[2];
process.on('disconnect', () => process.exit(0)); // bench/streams.ts is gone

if (role === 'holder') holder();
else if (role === 'probe') probe();
else throw new Error('streams-client.ts: holder or probe');

function holder(): void {
  const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  const totals = { bytes: 0, open: 0, cuts: 0, slowCuts: 0, resets: 0, refused: 0, failed: 0 };
  const responses = new Set<IncomingMessage>();
  let stopping = false;

  /** One stream, opened again (with its last id) whenever the server ends it. */
  function follow(spec: Spec): Promise<void> {
    let lastId: string | undefined;
    let tail = Buffer.alloc(0);
    let opened: (() => void) | undefined;
    const first = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const connect = () => {
      const headers = { authorization: `Bearer ${spec.token}`, ...(lastId && { 'last-event-id': lastId }) };
      const request = get(spec.url, { agent, headers }, (response) => {
        if (response.statusCode !== 200) {
          if (response.statusCode === 429) totals.refused++;
          else totals.failed++;
          response.resume();
          if (!stopping && response.statusCode === 429) setTimeout(connect, 1_000);
          opened?.();
          return;
        }
        totals.open++;
        responses.add(response);
        opened?.(); // the server follows the conversation before it answers
        opened = undefined;
        let firstChunk = true;
        const onData = (chunk: Buffer) => {
          totals.bytes += chunk.length;
          if (firstChunk && chunk.includes('event: reset')) totals.resets++;
          firstChunk = false;
          // The id of the last whole event: its `id:` line ends it (JSON data has no line breaks). Searched
          // in the bytes (with the end of the previous chunk, for a line cut in two), never decoded whole.
          const end = chunk.lastIndexOf(FRAME_END);
          if (end >= 0) {
            const bytes = end < 256 ? Buffer.concat([tail, chunk]) : chunk;
            const at = bytes === chunk ? end : end + tail.length;
            const start = bytes.lastIndexOf(ID_LINE, at);
            if (start >= 0)
              lastId = bytes.toString('latin1', start + ID_LINE.length, bytes.indexOf(10, start + 1));
          }
          tail = Buffer.from(chunk.subarray(-256));
        };
        if (spec.slow) {
          // Paused: 1 KB a second.
          const timer = setInterval(() => {
            const chunk = response.read(1_024) as Buffer | null;
            if (chunk) onData(chunk);
          }, 1_000);
          response.once('close', () => clearInterval(timer));
        } else response.on('data', onData);
        response.once('close', () => {
          totals.open--;
          responses.delete(response);
          if (stopping) return;
          if (spec.slow) totals.slowCuts++;
          else totals.cuts++;
          setTimeout(connect, spec.slow ? 1_000 : 0);
        });
      });
      request.on('error', () => {
        if (!stopping) totals.failed++;
        opened?.();
      });
    };
    connect();
    return first;
  }

  process.on('message', async (message: Message) => {
    if (message.type === 'open') {
      const all = message.specs.flatMap((spec) => Array.from({ length: spec.count }, () => spec));
      for (let i = 0; i < all.length; i += 100) await Promise.all(all.slice(i, i + 100).map(follow));
      send({ type: 'opened', ...totals });
    } else if (message.type === 'stats') {
      send({ type: 'stats', ...totals });
    } else if (message.type === 'stop') {
      stopping = true;
      for (const response of responses) response.destroy();
      send({ type: 'stopped', ...totals });
      setTimeout(() => process.exit(0), 100);
    }
  });
}

function probe(): void {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const samples: [at: number, ms: number][] = [];
  const outstanding = new Set<number>();
  let timer: NodeJS.Timeout | undefined;
  process.on('message', (message: Message) => {
    if (message.type === 'start') {
      let due = now();
      const ask = () => {
        const at = due;
        outstanding.add(at);
        const done = () => {
          outstanding.delete(at);
          samples.push([at, now() - at]);
        };
        get(`${message.url}/health`, { agent }, (response) => {
          response.resume();
          response.once('end', done);
        }).on('error', done);
        due += message.everyMs;
        timer = setTimeout(ask, Math.max(0, due - now()));
      };
      ask();
    } else if (message.type === 'stop') {
      clearTimeout(timer);
      // Requests still out are as late as they are now.
      setTimeout(() => {
        for (const at of outstanding) samples.push([at, now() - at]);
        send({ type: 'samples', samples });
        setTimeout(() => process.exit(0), 100);
      }, 500);
    }
  });
}
