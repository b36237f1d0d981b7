/**
 * The two payload shapes a rule can send: a generic JSON document, or a Slack-compatible
 * incoming-webhook body ({text}). Agent output goes in as text only (escaped for Slack's markup).
 */
import type { NotificationEvent, NotificationFormat } from '../config/notification-rules';
import type { TaskRecord } from '../db/task-records';
import { messageText } from '../protocol/message-text';
import { ELLIPSIS, LEFT_ARROW, RIGHT_ARROW } from '../protocol/wide-chars';

export const RESULT_PREVIEW_CHARS = 2_000;
const PREVIEW_CHARS = 300;

export interface PayloadInput {
  deliveryId: string;
  rule: string;
  events: NotificationEvent[];
  task: TaskRecord;
  dashboardUrl: string;
  at: Date;
}

const shorten = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}${ELLIPSIS}` : text);

export function jsonPayload(p: PayloadInput) {
  const t = p.task;
  return {
    kind: 'switchboard.notification',
    version: 1,
    deliveryId: p.deliveryId,
    rule: p.rule,
    events: p.events,
    at: p.at.toISOString(),
    task: {
      id: t.id,
      contextId: t.contextId,
      direction: t.direction,
      agent: t.agentSlug,
      peer: t.peerName,
      peerUrl: t.peerUrl,
      state: t.state,
      endReason: t.endReason,
      detached: t.detached,
      request: shorten(t.requestText, PREVIEW_CHARS),
      status: shorten(messageText(t.statusMessage), PREVIEW_CHARS),
      createdAt: t.createdAt,
      endedAt: t.endedAt,
      dashboardUrl: p.dashboardUrl,
    },
    result: shorten(t.resultText, RESULT_PREVIEW_CHARS),
  };
}

/** Slack mrkdwn treats &, < and > as markup: https://api.slack.com/reference/surfaces/formatting#escaping */
const slackEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function slackPayload(p: PayloadInput) {
  const t = p.task;
  const who = t.direction === 'outbound' ? `${RIGHT_ARROW} ${t.peerName ?? t.peerUrl ?? 'peer'}` : `${LEFT_ARROW} ${t.agentSlug ?? 'agent'}`;
  const what = t.state === 'input-required' ? 'needs input' : t.state;
  const reason = t.endReason ?? (t.state === 'input-required' ? messageText(t.statusMessage) : '');
  const lines = [
    `*Switchboard*: task <${p.dashboardUrl}|${t.id.slice(0, 13)}> (${slackEscape(who)}) ${what}${reason ? `: ${slackEscape(shorten(reason, PREVIEW_CHARS))}` : ''}`,
    `> ${slackEscape(shorten(t.requestText.replace(/\s+/g, ' '), PREVIEW_CHARS))}`,
  ];
  return { text: lines.join('\n') };
}

export function buildPayload(format: NotificationFormat, p: PayloadInput): unknown {
  return format === 'slack' ? slackPayload(p) : jsonPayload(p);
}
