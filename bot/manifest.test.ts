import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { AppsManifestCreateArguments } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/** The manifest type of Slack's own Web API client (what apps.manifest.create takes). */
type Manifest = AppsManifestCreateArguments['manifest'];
const manifest = parse(readFileSync('manifest.yml', 'utf8')) as Manifest;

/** The Web API methods the bot calls, and the bot scope each needs (none: no scope needed). */
const SCOPE_OF: Record<string, string | null> = {
  'auth.test': null,
  'chat.postMessage': 'chat:write',
  'chat.postEphemeral': 'chat:write',
  'chat.update': 'chat:write',
  'chat.delete': 'chat:write',
  'conversations.open': 'im:write',
  'reactions.add': 'reactions:write',
  'reactions.remove': 'reactions:write',
  'users.info': 'users:read',
  'usergroups.users.list': 'usergroups:read',
  'views.open': null,
  'views.update': null,
  'views.publish': null,
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    if (statSync(p).isDirectory()) return f === 'testing' ? [] : sources(p);
    return p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
  });
}

describe('manifest.yml', () => {
  it('parses as YAML into the shape of a Slack app manifest, nothing cut by a comment', () => {
    expect(manifest.display_information.name.length).toBeLessThanOrEqual(35);
    const description = manifest.display_information.description ?? '';
    expect(description).toBe('Answers customers in #support and asks a manager before it changes anything.');
    expect(description.length).toBeLessThanOrEqual(140);
    expect(manifest.display_information.background_color).toMatch(/^#[0-9a-f]{6}$/i);
    const known = ['_metadata', 'display_information', 'features', 'oauth_config', 'settings', 'functions'];
    expect(Object.keys(manifest).filter((k) => !known.includes(k))).toEqual([]);
    expect(manifest.settings?.event_subscriptions?.bot_events).toEqual(
      expect.arrayContaining(['message.channels', 'message.im', 'app_home_opened']),
    );
  });

  it('asks for the scope of every Web API method the bot calls, and no scope it never uses', () => {
    const called = new Set<string>();
    for (const file of sources('bot')) {
      for (const m of readFileSync(file, 'utf8').matchAll(
        /\.(auth|chat|conversations|reactions|users|usergroups|views)\s*\.(\w+(?:\.\w+)?)\(/g,
      )) {
        called.add(`${m[1]}.${m[2]}`);
      }
    }
    expect([...called].filter((m) => !(m in SCOPE_OF))).toEqual([]);
    const needed = new Set([...called].map((m) => SCOPE_OF[m]).filter((s): s is string => Boolean(s)));
    const scopes: string[] = manifest.oauth_config?.scopes?.bot ?? [];
    expect([...needed].filter((s) => !scopes.includes(s))).toEqual([]);
    // Reading messages is what the event subscriptions need, not a method call.
    const forEvents = new Set(['channels:history', 'im:history']);
    expect(scopes.filter((s: string) => !needed.has(s) && !forEvents.has(s))).toEqual([]);
  });
});
