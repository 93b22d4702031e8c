import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { toolServerCommand } from './tool-server-command.js';

const root = path.resolve('/srv/app');
const url = (...p: string[]) => pathToFileURL(path.join(root, ...p)).href;

describe('the stdio tool server child', () => {
  it('from source: the TypeScript entry under tsx, in the project folder', () => {
    expect(toolServerCommand(url('agent', 'tool-server-command.ts'))).toEqual({
      args: ['--max-semi-space-size=2', '--import', 'tsx', path.join(root, 'mcp-server', 'stdio.ts'), '--schema-ready'],
      cwd: root,
    });
  });

  it('compiled: the JavaScript entry beside it in dist, no tsx, still in the project folder', () => {
    // The runtime image has no tsx, and DATA_DIR (relative by default) must mean the same folder to both.
    expect(toolServerCommand(url('dist', 'agent', 'tool-server-command.js'))).toEqual({
      // The worker migrated before it started the child: the child only connects.
      // Node's flags first (a small young generation, see TOOL_SERVER_NODE_FLAGS), then the entry.
      args: ['--max-semi-space-size=2', path.join(root, 'dist', 'mcp-server', 'stdio.js'), '--schema-ready'],
      cwd: root,
    });
  });
});
