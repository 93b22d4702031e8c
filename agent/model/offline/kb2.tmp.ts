import { KB_ARTICLES } from '../../../schema/seed/kb-articles.js';
import { RETRIEVAL_CASES } from '../../../schema/seed/retrieval-cases.js';
import { answerFromKb } from './replies.js';
import { makeContext } from './testing.js';
let fp = 0;
RETRIEVAL_CASES.forEach((c, i) => {
  const wrong = KB_ARTICLES.filter((a) => !c.expected.includes(a.id) && a.topic !== KB_ARTICLES.find((x) => x.id === c.expected[0])!.topic);
  const a = wrong[(i * 7) % wrong.length]!;
  const ctx = makeContext({ retrieved: [{ id: a.id, title: a.title, topic: a.topic, snippet: a.body.slice(0, 240), score: 0.3 }] });
  if (answerFromKb(c.question, ctx)) fp++;
});
console.log('false positives', fp, '/', RETRIEVAL_CASES.length);
for (const q of ['do you clean boats?', 'can you walk my dog?', 'do you do gutter cleaning?', 'what is the meaning of life?', 'do you sell furniture?']) {
  let hits = 0;
  for (const a of KB_ARTICLES) if (answerFromKb(q, makeContext({ retrieved: [{ id: a.id, title: a.title, topic: a.topic, snippet: a.body.slice(0, 240), score: 0.3 }] }))) hits++;
  console.log(q, 'answered by', hits, 'of', KB_ARTICLES.length);
}
