import { connectHttp, TEST_STAFF_KEY } from './testing/clients.js';
import { defineToolSuite } from './testing/suite.js';

// The same behaviour over Streamable HTTP (stateless, in-process server). The suite acts as staff
// (and narrows to customers through _meta), so it holds a staff key: without one, HTTP gets the
// knowledge base only (http-auth.test.ts).
defineToolSuite('http', (db) => connectHttp(db.pool, { staffKeys: [TEST_STAFF_KEY], bearer: TEST_STAFF_KEY.key }));
