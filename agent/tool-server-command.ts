import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ToolServerCommand {
  /** Arguments for `process.execPath`. */
  args: string[];
  cwd: string;
}

/**
 * How to start the stdio tool server from the module at `moduleUrl` (this folder's): from source
 * it is TypeScript run under tsx; compiled (`npm run build`) it is the JavaScript in dist, since
 * the production image installs no tsx. Either way the child runs in the project folder, so a
 * relative DATA_DIR names the same folder for parent and child.
 */
export function toolServerCommand(moduleUrl: string = import.meta.url): ToolServerCommand {
  const here = path.dirname(fileURLToPath(moduleUrl));
  const tree = path.resolve(here, '..');
  if (moduleUrl.endsWith('.js')) {
    return { args: [path.join(tree, 'mcp-server', 'stdio.js')], cwd: path.dirname(tree) };
  }
  return { args: ['--import', 'tsx', path.join(tree, 'mcp-server', 'stdio.ts')], cwd: tree };
}
