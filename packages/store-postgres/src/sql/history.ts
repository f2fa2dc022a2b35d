/**
 * A conversation's history as rows (id, part, ord), in order of (part, ord): the prompts it shares when it is
 * a fork (part 0, by position), then its own (part 1, by seq). One index range each, however deep the forks
 * go: a fork lists its whole shared history itself. `s`: the quoted schema; `id`: SQL giving the
 * conversation's id (a parameter or a column).
 */
export const history = (
  s: string,
  id: string,
) => `SELECT x.prompt_id AS id, 0 AS part, x.position::bigint AS ord
    FROM ${s}.shared_prompts x WHERE x.conversation_id = ${id}
  UNION ALL
  SELECT p.id, 1 AS part, p.seq AS ord FROM ${s}.prompts p WHERE p.conversation_id = ${id}`;

/**
 * A conversation's history as prompts: `columns` of each prompt `p`, with its (part, ord) as `history`
 * gives them. Its own prompts are read straight off their index range, not looked up again by id.
 */
export const historyPrompts = (s: string, id: string, columns: string) => `SELECT ${columns}, 0 AS part,
      x.position::bigint AS ord
    FROM ${s}.shared_prompts x JOIN ${s}.prompts p ON p.id = x.prompt_id WHERE x.conversation_id = ${id}
  UNION ALL
  SELECT ${columns}, 1 AS part, p.seq AS ord FROM ${s}.prompts p WHERE p.conversation_id = ${id}`;
