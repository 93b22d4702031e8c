import { connectStdio } from './testing/clients.js';
import { defineToolSuite } from './testing/suite.js';

// The tool server as a child process (`tsx mcp-server/stdio.ts`), FIXED_NOW = TEST_NOW.
defineToolSuite('stdio', (db) => connectStdio(db.url));
