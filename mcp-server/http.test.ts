import { connectHttp } from './testing/clients.js';
import { defineToolSuite } from './testing/suite.js';

// The same behaviour over Streamable HTTP (stateless, in-process server).
defineToolSuite('http', (db) => connectHttp(db.pool));
