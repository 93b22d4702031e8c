import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ToolServerCommand {
  /** Arguments for `process.execPath`. */
  args: string[];
  cwd: string;
}

/**
 * A worker starts its child only on a database it opened (migrated, seeded) itself, so the child
 * skips the migration and the LangGraph modules it needs (mcp-server/stdio.ts).
 */
const CHILD_FLAGS = ['--schema-ready'];

/**
 * V8's young generation for the child. Left alone it grows to 16 MB semi-spaces (32 MB committed)
 * during start-up and stays there for the child's life; a tool call allocates a query and a JSON
 * reply of a few KB, so 2 MB semi-spaces scavenge often enough and cheaply (measured: idle 86 →
 * 81 MB RSS, 114 → 89 MB after 96 conversations at 16 in flight, no CPU change within noise).
 * Oversized messages go to the large-object space, not here. The old generation is left to V8.
 */
export const TOOL_SERVER_NODE_FLAGS = ['--max-semi-space-size=2'];

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
    const entry = path.join(tree, 'mcp-server', 'stdio.js');
    return { args: [...TOOL_SERVER_NODE_FLAGS, entry, ...CHILD_FLAGS], cwd: path.dirname(tree) };
  }
  const entry = path.join(tree, 'mcp-server', 'stdio.ts');
  return { args: [...TOOL_SERVER_NODE_FLAGS, '--import', 'tsx', entry, ...CHILD_FLAGS], cwd: tree };
}
