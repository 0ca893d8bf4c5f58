import { describe, expect, it } from 'vitest';
import { COPY_BIAS, IDENTIFIER_BIAS, REPEAT_BIAS, TABLE_BIAS, sqlDecodingGuide } from '../../envs/sql/training/sql-decoding-guide.js';

const prompt = [
  '<|im_start|>system\nYou answer questions. Question: not this one, Zebra 77.<|im_end|>',
  '<|im_start|>user\nQuestion: What is the loyalty tier of the customer Victor Brooks, with 230 to 1200 points?',
  '',
  'Database: online_store',
  '',
  'Tables: customer, order_item, orders, product<|im_end|>',
  '<|im_start|>assistant\n',
].join('\n');
const sql = (text: string) => `<tool_call>\n{"name": "query", "arguments": {"sql":"${text}`;
/** The guide's nudges for the next token (none, one, or several whose biases add up). */
const nudges = (context: string, generated: string) => [sqlDecodingGuide(context, generated) ?? []].flat();
const biases = (context: string, generated: string) => nudges(context, generated).map((n) => n.bias);
const favours = (context: string, generated: string, token: string) => nudges(context, generated).some((n) => n.favours(token));
const favoured = (generated: string, tokens: readonly string[]) => tokens.filter((t) => favours(prompt, generated, t));

describe('sqlDecodingGuide', () => {
  it('inside a literal, favours continuing a word sequence of the conversation, and closing it after a whole word', () => {
    const opened = sql("SELECT loyalty_tier FROM customer WHERE name = '");
    expect(biases(prompt, opened)).toEqual([COPY_BIAS]);
    expect(favoured(opened, ['Victor', 'V', 'Vic', 'Nik', 'Brooks', "'"])).toEqual(['Victor', 'V', 'Vic', 'Brooks']);
    expect(favoured(opened + 'Vic', ['tor', 'to', 'ky', "'"])).toEqual(['tor', 'to']);
    expect(favoured(opened + 'Victor', [' Brooks', ' B', ' Smith', "'", "'\"}}"])).toEqual([' Brooks', ' B', "'", "'\"}}"]);
    // Only what the policy sees: the system prompt's words are not copies.
    expect(favoured(opened, ['Zebra'])).toEqual([]);
    // Nothing in the conversation continues it: no nudge.
    expect(sqlDecodingGuide(prompt, opened + 'Qx')).toBeUndefined();
  });

  it('inside a number, favours the digits of a number of the conversation', () => {
    expect(favoured(sql('SELECT COUNT(*) FROM customer WHERE points BETWEEN 230 AND 1'), ['200', '2', '30', ' ', ')'])).toEqual(['200', '2']);
    expect(favoured(sql('SELECT COUNT(*) FROM customer WHERE points BETWEEN 230'), [' AND', '0', '"'])).toEqual([' AND', '"']);
    // A sentence's full stop after a number is not a decimal point: the number may end there.
    const sentence = 'Question: Count the ports founded in 1900.\n\nTables: port';
    expect(favours(sentence, sql('SELECT COUNT(*) FROM port WHERE year = 1900'), '"')).toBe(true);
    expect(favours('Question: Rated above 1.5?', sql('SELECT * FROM t WHERE r > 1'), '.')).toBe(true);
    // Digits inside a name are not a number.
    expect(sqlDecodingGuide(prompt, sql('SELECT t1'))).toBeUndefined();
  });

  it('after FROM or JOIN, favours the listed tables, strongly', () => {
    const from = sql('SELECT COUNT(*) FROM');
    expect(biases(prompt, from)).toEqual([TABLE_BIAS]);
    expect(favoured(from, [' customer', ' cust', ' order', ' patient', ' product'])).toEqual([' customer', ' cust', ' order', ' product']);
    expect(favoured(sql('SELECT * FROM customer AS T1 JOIN ord'), ['ers', 'er_item', 'er', 'inal'])).toEqual(['ers', 'er_item', 'er']);
    // A whole table name may end there; a longer one may go on.
    expect(favoured(sql('SELECT * FROM orders'), [' WHERE', '_x', 'x'])).toEqual([' WHERE']);
    // The list's last table, though the chat template's end token follows it on its line.
    expect(favoured(sql('SELECT * FROM product'), [' WHERE', '_x'])).toEqual([' WHERE']);
    expect(sqlDecodingGuide(prompt, sql('SELECT * FROM zzz'))).toBeUndefined();
  });

  it('says nothing elsewhere, or where the prompt lists no tables', () => {
    expect(sqlDecodingGuide(prompt, sql('SELECT name'))).toBeUndefined();
    expect(sqlDecodingGuide(prompt, '<tool_call>\n{"name": "answer", "arguments": {"value":"it\'s"}')).toBeUndefined();
    expect(sqlDecodingGuide('Question: How many?', sql('SELECT COUNT(*) FROM'))).toBeUndefined();
  });

  it('in an answer, favours repeating the latest query that ran, as long as the answer has repeated it so far', () => {
    const ran = (response: string) =>
      prompt.replace('<|im_start|>assistant\n', `<|im_start|>assistant\n${sql("SELECT COUNT(*) FROM orders WHERE status = 'Blues'")}"}}\n</tool_call><|im_end|>\n<|im_start|>user\n<tool_response>\n${response}\n</tool_response><|im_end|>\n<|im_start|>assistant\n`);
    const context = ran('| COUNT(*) |\n| 19 |');
    const answer = (text: string) => `<tool_call>\n{"name": "answer", "arguments": {"value":"${text}`;
    expect(biases(context, answer('SELECT COUNT(*) '))).toEqual([REPEAT_BIAS]);
    expect(['FROM', 'WHERE', 'FR'].filter((t) => favours(context, answer('SELECT COUNT(*) '), t))).toEqual(['FROM', 'FR']);
    // With the table nudge after FROM, and the literal nudge inside a value: both speak, and their biases add up.
    expect(biases(context, answer('SELECT COUNT(*) FROM'))).toEqual([REPEAT_BIAS, TABLE_BIAS]);
    const literal = answer("SELECT COUNT(*) FROM orders WHERE status = 'B");
    expect(biases(context, literal)).toEqual([REPEAT_BIAS, COPY_BIAS]);
    expect(nudges(context, literal).map((n) => ['lues', 'ock'].filter((t) => n.favours(t)))).toEqual([['lues'], ['lues']]);
    expect(favours(context, answer("SELECT COUNT(*) FROM orders WHERE status = 'Blues'"), '"}}')).toBe(true);
    // Once the answer departs from the query, only spelling; after a query that failed, no repeat.
    expect(biases(context, answer('SELECT SUM('))).toEqual([]);
    expect(biases(ran('Error: no such column: status.'), answer('SELECT COUNT(*) '))).toEqual([]);
  });

  describe('where the conversation shows every table\'s columns', () => {
    const listed = prompt.replace('<|im_end|>\n<|im_start|>assistant', '\n\nColumns: customer(id, name, loyalty_tier, points); order_item(id, qty); orders(id, customer_id); product(id, title)<|im_end|>\n<|im_start|>assistant');
    const known = (generated: string, tokens: readonly string[]) => tokens.filter((t) => favours(listed, generated, t));

    it('keeps each word of a query a column, a table, a keyword or function, or an alias the query defines', () => {
      const where = sql('SELECT COUNT(*) FROM customer WHERE ');
      expect(biases(listed, where)).toEqual([IDENTIFIER_BIAS]);
      expect(known(where, ['points', ' points', 'loyal', 'level', 'patient', 'NOT', ' (', "'", '5'])).toEqual(['points', ' points', 'loyal', 'NOT', ' (', "'", '5']);
      expect(known(where + 'loyal', ['ty_tier', 'ty', 'ty_level', ' ', '_tier'])).toEqual(['ty_tier', 'ty']);
      // A word ends only where it is whole.
      expect(known(where + 'loyalty', [' =', '_tier', ','])).toEqual(['_tier']);
      expect(known(sql('SELECT count'), ['(*)', '(', 'er'])).toEqual(['(*)', '(']);
      // SQLite's other words: window and math functions, collations, type names.
      expect(known(sql('SELECT '), ['ROW_NUMBER', 'strftime', 'ROUND', 'julianday', 'Zap'])).toEqual(['ROW_NUMBER', 'strftime', 'ROUND', 'julianday']);
      expect(known(sql('SELECT name FROM customer ORDER BY name COLLATE '), ['NOCASE', 'CAST', 'CASTLE'])).toEqual(['NOCASE', 'CAST']);
      expect(known(sql('SELECT T1.'), ['name', 'nam', 'nme'])).toEqual(['name', 'nam']);
      expect(known(sql('SELECT c.name FROM customer AS c WHERE c'), ['.', 'x'])).toEqual(['.']);
      // An alias being defined is free, as is an answer's SQL checked like a query's.
      expect(sqlDecodingGuide(listed, sql('SELECT * FROM customer AS '))).toBeUndefined();
      const answer = '<tool_call>\n{"name": "answer", "arguments": {"value": "SELECT na';
      expect(known(answer, ['me', 'x'])).toEqual(['me']);
      // An answer's value that is not SQL, and a closed query, are not checked.
      expect(sqlDecodingGuide(listed, '<tool_call>\n{"name": "answer", "arguments": {"value": "Gol')).toBeUndefined();
      expect(sqlDecodingGuide(listed, sql('SELECT id FROM product"}}'))).toBeUndefined();
    });

    it('reads the columns of described tables, and says nothing while some table\'s columns are unknown', () => {
      expect(sqlDecodingGuide(prompt, sql('SELECT COUNT(*) FROM customer WHERE '))).toBeUndefined();
      const described = (tables: readonly string[]) =>
        prompt.replace('<|im_start|>assistant', tables.map((t) => `<|im_start|>user\n<tool_response>\nTABLE ${t} (3 rows)\n  id INTEGER PRIMARY KEY\n  ${t}_label TEXT NOT NULL\n  FOREIGN KEY id → x.id\n(8 steps left)\n</tool_response><|im_end|>\n`).join('') + '<|im_start|>assistant');
      expect(sqlDecodingGuide(described(['customer', 'orders']), sql('SELECT '))).toBeUndefined();
      const all = described(['customer', 'order_item', 'orders', 'product']);
      expect(['product_label', 'points', 'label'].filter((t) => favours(all, sql('SELECT '), t))).toEqual(['product_label']);
    });
  });
});
