import { describe, expect, it } from 'vitest';
import { COPY_BIAS, TABLE_BIAS, sqlDecodingGuide } from '../../envs/sql/training/sql-decoding-guide.js';

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
const favoured = (generated: string, tokens: readonly string[]) => tokens.filter((t) => sqlDecodingGuide(prompt, generated)?.favours(t));

describe('sqlDecodingGuide', () => {
  it('inside a literal, favours continuing a word sequence of the conversation, and closing it after a whole word', () => {
    const opened = sql("SELECT loyalty_tier FROM customer WHERE name = '");
    expect(sqlDecodingGuide(prompt, opened)?.bias).toBe(COPY_BIAS);
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
    // Digits inside a name are not a number.
    expect(sqlDecodingGuide(prompt, sql('SELECT t1'))).toBeUndefined();
  });

  it('after FROM or JOIN, favours the listed tables, strongly', () => {
    const from = sql('SELECT COUNT(*) FROM');
    expect(sqlDecodingGuide(prompt, from)?.bias).toBe(TABLE_BIAS);
    expect(favoured(from, [' customer', ' cust', ' order', ' patient', ' product'])).toEqual([' customer', ' cust', ' order', ' product']);
    expect(favoured(sql('SELECT * FROM customer AS T1 JOIN ord'), ['ers', 'er_item', 'er', 'inal'])).toEqual(['ers', 'er_item', 'er']);
    // A whole table name may end there; a longer one may go on.
    expect(favoured(sql('SELECT * FROM orders'), [' WHERE', '_x', 'x'])).toEqual([' WHERE']);
    expect(sqlDecodingGuide(prompt, sql('SELECT * FROM zzz'))).toBeUndefined();
  });

  it('says nothing elsewhere, or where the prompt lists no tables', () => {
    expect(sqlDecodingGuide(prompt, sql('SELECT name'))).toBeUndefined();
    expect(sqlDecodingGuide(prompt, '<tool_call>\n{"name": "answer", "arguments": {"value":"it\'s"}')).toBeUndefined();
    expect(sqlDecodingGuide('Question: How many?', sql('SELECT COUNT(*) FROM'))).toBeUndefined();
  });
});
