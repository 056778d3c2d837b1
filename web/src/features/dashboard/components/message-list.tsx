import { Button } from '@cmsgov/design-system';
import type { AgentMessage } from '../types';
import { sanitizeHtml } from '../utils/sanitize';

interface MessageListProps {
  messages: AgentMessage[];
  /** Offer Dismiss on messages that are not sticky; absent for old messages. */
  onDismiss?: (message: AgentMessage) => void;
  /** Heading level of each message's title. */
  headingLevel?: 3 | 4;
}

/** Messages with their HTML content (sanitized again here) and, unless sticky, a Dismiss button. */
export function MessageList({ messages, onDismiss, headingLevel = 3 }: MessageListProps) {
  const Heading = `h${headingLevel}` as const;
  return (
    <ul className="ef-messages">
      {messages.map((m) => (
        <li key={m.id} className="ef-messages__item" data-message-id={m.id}>
          <div className="ef-messages__body">
            {m.title && <Heading className="ds-text-heading--md ds-u-margin-top--0">{m.title}</Heading>}
            <div className="ef-messages__content" dangerouslySetInnerHTML={{ __html: sanitizeHtml(m.content) }} />
          </div>
          {onDismiss && !m.is_sticky && (
            <Button
              variation="ghost"
              size="small"
              aria-label={m.title ? `Dismiss ${m.title}` : 'Dismiss'}
              onClick={() => onDismiss(m)}
            >
              Dismiss
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}
