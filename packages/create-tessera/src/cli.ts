#!/usr/bin/env node
// `npm create tessera@latest my-app -- --plugin tickets` runs `create-tessera my-app --plugin tickets`.
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from './names.ts';
import { createTessera } from './scaffold.ts';

const USAGE = `Usage: npm create tessera@latest [folder] -- [--plugin <name>] [--packages-from <folder>]
       create-tessera [folder] [--plugin <name>] [--packages-from <folder>]

Creates a Tessera app in <folder> (default: tessera-app), whose name is the app's package name.

  --plugin <name>          also a plugin package in plugins/<id>/, which the app serves: an id
                           (tickets: the package tessera-plugin-tickets) or a package name
                           (@acme/tessera-plugin-tickets)
  --packages-from <folder> install the Tessera packages from the .tgz files in <folder> (packed with
                           npm pack or pnpm pack) instead of the registry: before they are published
  -h, --help               this text`;

try {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      plugin: { type: 'string' },
      'packages-from': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (positionals.length > 1) throw new UsageError(`One folder, please: got ${positionals.join(', ')}.`);
  const created = await createTessera({
    directory: positionals[0] ?? 'tessera-app',
    plugin: values.plugin,
    packagesFrom: values['packages-from'],
  });
  const folder = relative(process.cwd(), created.directory) || '.';
  const plugin = created.plugin
    ? `, with the plugin ${created.plugin.packageName} in plugins/${created.plugin.id}/`
    : '';
  console.log(`
Created ${created.name}: a Tessera app${plugin}.

  cd ${folder}
  npm install && npm start    # the server and its web UI on http://127.0.0.1:3000
  npm install && npm test     # the tests, on a scripted model: no API key, no network

Its README says what each file is for.`);
} catch (error) {
  if (!(error instanceof UsageError) && !(error instanceof TypeError && 'code' in error)) throw error;
  // A mistake in the command line (parseArgs throws TypeErrors with a code): one line and the usage.
  console.error(`${error.message}\n\n${USAGE}`);
  process.exit(2);
}
