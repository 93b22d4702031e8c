import { z } from 'zod';

export const SearchKnowledgeBaseInput = z.object({
  query: z.string().trim().min(1).max(500),
  limit: z.number().int().min(1).max(10).default(5),
});

export const SearchKnowledgeBaseOutput = z.object({
  query: z.string().describe('The query as searched.'),
  results: z
    .array(
      z.object({
        id: z.string().describe('Article id, e.g. kb-pricing-01.'),
        title: z.string().describe('Article title.'),
        topic: z.string().describe('Help-centre topic.'),
        snippet: z.string().describe('The most relevant passage, plain text.'),
        score: z.number().describe('Relevance; higher is better.'),
      }),
    )
    .describe('Best matches first.'),
});

export type SearchKnowledgeBaseArgs = z.infer<typeof SearchKnowledgeBaseInput>;
export type SearchKnowledgeBaseResult = z.infer<typeof SearchKnowledgeBaseOutput>;
