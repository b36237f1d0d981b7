'use client';
import { Badge } from '@/components/ui/badge';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import type { Message } from '@/lib/protocol/types';
import { PartsView } from './parts-view';

/** The request and every message exchanged on the task, oldest first. */
export function MessageList({ messages }: { messages: Message[] }) {
  return (
    <Card aria-labelledby="messages-title">
      <CardHeader id="messages-title" title={`Messages · ${messages.length}`} />
      <CardBody className="space-y-3">
        {messages.length === 0 ? <p className="text-sm text-zinc-500">No messages.</p> : null}
        {messages.map((m, i) => (
          <div key={`${m.messageId}-${i}`} className="space-y-1" data-testid="message" data-role={m.role}>
            <Badge tone={m.role === 'user' ? 'indigo' : 'gray'}>{i === 0 && m.role === 'user' ? 'request' : m.role}</Badge>
            <PartsView parts={m.parts} />
          </div>
        ))}
      </CardBody>
    </Card>
  );
}
