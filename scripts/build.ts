/**
 * `npm run build`: the product compiled to JavaScript in dist/ (what `npm run start:prod` and the
 * image run), see build-product.ts.
 *
 * Flags: --out-dir <dir>  build there instead of dist/ (the build test).
 */
import path from 'node:path';
import { buildProduct, PROJECT_ROOT } from './build-product.js';

const flag = process.argv.indexOf('--out-dir');
const outArg = flag >= 0 ? process.argv[flag + 1] : 'dist';
if (!outArg) throw new Error('--out-dir needs a folder');
const out = path.resolve(PROJECT_ROOT, outArg);
buildProduct(out);
console.log(`built ${path.relative(PROJECT_ROOT, out) || out}`);
