import { KB_ARTICLES } from '../../../schema/seed/kb-articles.js';
import { RETRIEVAL_CASES } from '../../../schema/seed/retrieval-cases.js';
import { answerFromKb } from './replies.js';
import { planTurn } from './planner.js';
import { makeContext, system, customer } from './testing.js';
let miss = 0, acted = 0;
for (const c of RETRIEVAL_CASES) {
  const arts = c.expected.map((id) => KB_ARTICLES.find((a) => a.id === id)!).map((a, i) => ({ id: a.id, title: a.title, topic: a.topic, snippet: a.body.split('\n\n').slice(0, 2).join(' '), score: 1 - i * 0.1 }));
  const ctx = makeContext({ retrieved: arts });
  const ans = answerFromKb(c.question, ctx);
  const t = planTurn([system(ctx), customer(c.question)]);
  if (!ans) { miss++; console.log('MISS', c.question); }
  if (t.calls.length || !t.content.includes('help article')) { acted++; console.log('ACT ', c.question, '→', t.calls.map((x) => x.name).join(','), t.content.slice(0, 100)); }
}
console.log('cases', RETRIEVAL_CASES.length, 'miss', miss, 'acted', acted);
