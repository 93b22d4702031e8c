import { escapeHtml } from '../core/html.js';

/** What `GET /` says: what runs, where, and what to open first. */
export interface RunningSummary {
  url: string;
  database: string;
  planner: string;
  slack: string;
  slackConsole?: string;
  tracing: string;
  managerKeyFile?: string;
}

export const homeJson = (s: RunningSummary) => ({
  service: 'support agent',
  status: 'running',
  database: s.database,
  planner: s.planner,
  slack: s.slack,
  ...(s.slackConsole ? { slack_console: s.slackConsole } : {}),
  tracing: s.tracing,
  endpoints: {
    health: `${s.url}/healthz`,
    chat: `POST ${s.url}/chat`,
    approvals: `GET ${s.url}/approvals`,
  },
});

const keyCommand = (file: string) => `export MANAGER_API_KEY=$(cat ${file})`;

export function homeHtml(s: RunningSummary): string {
  const row = (k: string, v: string) => `<tr><th>${escapeHtml(k)}</th><td>${v}</td></tr>`;
  const link = (href: string) => `<a href="${escapeHtml(href)}">${escapeHtml(href)}</a>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Support agent</title>
<style>body{font:16px system-ui,sans-serif;margin:2rem;max-width:46rem}th{text-align:left;padding-right:1rem}</style>
</head><body><h1>Support agent is running</h1>
${s.slackConsole ? `<p>Open the local Slack workspace: ${link(s.slackConsole)}</p>` : ''}
<table>
${row('Database', escapeHtml(s.database))}
${row('Planner', escapeHtml(s.planner))}
${row('Slack', escapeHtml(s.slack))}
${row('Tracing', escapeHtml(s.tracing))}
${row('Health', link(`${s.url}/healthz`))}
${s.managerKeyFile ? row('Manager API key', `<code>${escapeHtml(keyCommand(s.managerKeyFile))}</code>`) : ''}
</table></body></html>`;
}

/** The few lines a person reads on a terminal after `npm start`. */
export function banner(s: RunningSummary): string {
  const lines = [
    '',
    `  Support agent ready at ${s.url}`,
    ...(s.slackConsole ? [`  Local Slack workspace:  ${s.slackConsole}   ← open this first`] : []),
    `  Database: ${s.database} · planner: ${s.planner} · tracing: ${s.tracing}`,
    ...(s.managerKeyFile ? [`  Manager API key:        ${keyCommand(s.managerKeyFile)}`] : []),
    '  Stop with Ctrl-C.',
    '',
  ];
  return lines.join('\n');
}
