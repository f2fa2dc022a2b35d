// A chat page as any AI SDK app writes one: `useChat` from @ai-sdk/react with a DefaultChatTransport pointed
// at the Tessera server, nothing of Tessera's own. It shows every part of the messages, and approval requests
// with Approve and Deny buttons; an answered approval is sent back by `sendAutomaticallyWhen`.
// Built with Vite by test/e2e-ai-sdk-chat.test.ts; signed in by the token in the URL's fragment (#token=…).
import { useChat } from '@ai-sdk/react';
import {
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type UIMessage,
} from 'ai';
import { type FormEvent, useState } from 'react';
import { createRoot } from 'react-dom/client';

const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';

const transport = new DefaultChatTransport({
  api: '/api/ai-sdk/chat',
  headers: { Authorization: `Bearer ${token}` },
});

type Part = UIMessage['parts'][number];
type Decide = (approvalId: string, approved: boolean) => void;

function MessagePart({ part, decide }: { part: Part; decide: Decide }) {
  if (part.type === 'text') return <p>{part.text}</p>;
  if (part.type === 'reasoning') return <p className="reasoning">{part.text}</p>;
  if (part.type === 'file')
    return (
      <a href={part.url} type={part.mediaType}>
        {part.filename ?? part.url}
      </a>
    );
  if (part.type === 'dynamic-tool')
    return (
      <section aria-label={`Tool ${part.toolName}`} data-state={part.state}>
        <h3>
          {part.toolName}: {part.state}
        </h3>
        <pre>{JSON.stringify(part.input)}</pre>
        {part.state === 'approval-requested' && (
          <div>
            <p>{part.approval.requestReason}</p>
            <button type="button" onClick={() => decide(part.approval.id, true)}>
              Approve
            </button>
            <button type="button" onClick={() => decide(part.approval.id, false)}>
              Deny
            </button>
          </div>
        )}
        {part.state === 'output-available' && <pre data-part="output">{JSON.stringify(part.output)}</pre>}
        {part.state === 'output-error' && <p role="alert">{part.errorText}</p>}
      </section>
    );
  if (part.type.startsWith('data-'))
    return <pre data-part={part.type}>{JSON.stringify('data' in part ? part.data : undefined)}</pre>;
  return null;
}

function Chat() {
  const { messages, sendMessage, addToolApprovalResponse, status, error } = useChat({
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const [text, setText] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void sendMessage({ text });
    setText('');
  };
  const decide: Decide = (id, approved) => void addToolApprovalResponse({ id, approved });
  return (
    <main>
      <h1>useChat on Tessera</h1>
      <ol aria-label="Messages">
        {messages.map((message) => (
          <li key={message.id} data-role={message.role}>
            <strong>{message.role}</strong>
            {message.parts.map((part, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a message's parts only grow, in place
              <MessagePart key={index} part={part} decide={decide} />
            ))}
          </li>
        ))}
      </ol>
      <form onSubmit={submit}>
        <label>
          Message <input value={text} onChange={(event) => setText(event.target.value)} />
        </label>
        <button type="submit" disabled={status !== 'ready' || text.trim() === ''}>
          Send
        </button>
      </form>
      <output aria-label="Status">{status}</output>
      {error && <p role="alert">{error.message}</p>}
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<Chat />);
