import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { geminiSchemaProblems, toModelSchema } from './model-schema.js';
import { TOOLS } from '../../schema/tools/catalog.js';

describe('toModelSchema', () => {
  it('strips $schema, additionalProperties and the server-only bounds everywhere, and nothing else', () => {
    const input = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      additionalProperties: false,
      properties: {
        additionalProperties: { type: 'string', description: 'a property that happens to have this name' },
        nested: {
          type: 'object',
          additionalProperties: false,
          properties: { a: { type: 'integer', minimum: 1 }, s: { type: 'string', pattern: '^x$', maxLength: 9 } },
          required: ['a'],
        },
        list: {
          type: 'array',
          items: { type: 'object', additionalProperties: false, properties: { b: { type: 'string' } } },
        },
      },
      required: ['nested'],
    };
    const out = toModelSchema(input);
    expect(out).toEqual({
      type: 'object',
      properties: {
        additionalProperties: { type: 'string', description: 'a property that happens to have this name' },
        nested: { type: 'object', properties: { a: { type: 'integer' }, s: { type: 'string' } }, required: ['a'] },
        list: { type: 'array', items: { type: 'object', properties: { b: { type: 'string' } } } },
      },
      required: ['nested'],
    });
    expect(input.additionalProperties).toBe(false); // not modified in place
    expect(geminiSchemaProblems(out)).toEqual([]);
  });

  it('turns a nullable anyOf into nullable and a string const into an enum', () => {
    const schema = z.toJSONSchema(z.object({ reason: z.string().nullable(), kind: z.literal('withdraw') }), {
      target: 'draft-7',
    });
    const out = toModelSchema(schema as Record<string, unknown>);
    expect(out.properties).toEqual({
      reason: { type: 'string', nullable: true },
      kind: { type: 'string', enum: ['withdraw'] },
    });
    expect(geminiSchemaProblems(out)).toEqual([]);
  });
});

describe('geminiSchemaProblems', () => {
  it('accepts every registry input schema as the SDK publishes it', () => {
    for (const t of TOOLS) {
      const published = z.toJSONSchema(t.input, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
      expect({ tool: t.name, problems: geminiSchemaProblems(toModelSchema(published)) }).toEqual({
        tool: t.name,
        problems: [],
      });
    }
  });

  it('names every construct Gemini refuses, with its path', () => {
    const problems = geminiSchemaProblems({
      type: 'object',
      properties: {
        n: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 10 },
        r: { $ref: '#/$defs/x' },
        m: { type: 'object', additionalProperties: { type: 'string' } },
        e: { type: 'integer', enum: [1, 2] },
        f: { type: 'string', format: 'email' },
        p: { type: 'string', pattern: 'a'.repeat(201) },
        t: { type: ['string', 'null'] },
        c: { const: 'x' },
        o: { oneOf: [{ type: 'string' }] },
        a: { type: 'array' },
      },
      required: ['n', 'missing'],
      $defs: { x: { type: 'string' } },
    });
    const text = problems.join('\n');
    for (const expected of [
      '.properties.n.exclusiveMinimum',
      '.properties.n.exclusiveMaximum',
      '.properties.r.$ref',
      '.properties.m.additionalProperties',
      '.properties.m.properties: an object needs at least one property',
      '.properties.e.enum: enum values must be strings',
      '.properties.f.format: format "email" is not supported',
      '.properties.p.pattern: pattern is 201 characters',
      '.properties.t.type: type must be a single type name',
      '.properties.c.const',
      '.properties.o.oneOf',
      '.properties.a.items: an array needs items',
      '.required: required property "missing" is not in properties',
      '.$defs',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('accepts the OpenAPI-style spelling Gemini itself uses', () => {
    expect(
      geminiSchemaProblems({
        type: 'OBJECT',
        properties: {
          when: { type: 'STRING', format: 'date-time', nullable: true },
          kind: { type: 'STRING', format: 'enum', enum: ['a', 'b'] },
        },
        propertyOrdering: ['when', 'kind'],
      }),
    ).toEqual([]);
  });
});
