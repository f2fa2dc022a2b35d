// The same app as tessera.config.ts, as a library (`pnpm serve`): createServer reads no environment
// variables and no config file, so this program passes what it wants.
import { notesPlugin } from '@acme/tessera-plugin-notes';
import { createServer } from '@tessera/server';

const apiKey = process.env.OPENAI_API_KEY;
const server = await createServer({
  plugins: [notesPlugin({ confirmDeletesOver: 3 })], // maxNotes from ACME_NOTES_MAX, else 200
  ...(apiKey && { openai: { apiKey } }), // else the offline demo model
  dataDir: '.tessera',
});
const { url } = await server.listen({ port: Number(process.env.PORT ?? 3000) });
console.log(`Tessera with notes: ${url}/#token=${server.token}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void server.close().then(() => process.exit(0)));
}
