#!/usr/bin/env node
// The server's process: its V8 heap settings first (heap-settings.ts: this may run the process again in place,
// so nothing else is loaded before), then the server itself (serve.ts).
import { restartWithHeapSettings } from './heap-settings.ts';

restartWithHeapSettings();
await import('./serve.ts');
