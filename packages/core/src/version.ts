// The one source of core's version is its package.json, read as a JSON module: the path is the same from
// src/ (run by Node and the tests) and dist/ (published), and npm always packs package.json.
import manifest from '../package.json' with { type: 'json' };

/** The version of this copy of @tessera/core; plugins' `core` ranges are checked against it. */
export const CORE_VERSION: string = manifest.version;
