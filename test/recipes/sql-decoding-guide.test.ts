import { describe, expect, it } from 'vitest';
import type { SqlFeedback, ValueNotFoundFeedback } from '../../envs/sql/feedback/sql-feedback.js';
import type { SqlGuideContext } from '../../src/recipes/sql/guide/conversation.js';
import { COLUMN_COPY_BIAS, COPY_BIAS, DATE_BIAS, IDENTIFIER_BIAS, REPAIR_BIAS, REPAIR_SLOT_BIAS, REPEAT_BIAS, RETRIES, RETRY_BIAS, TABLE_BIAS, TABLE_COPY_BIAS, UNUSED_VALUE_BIAS, sqlDecodingGuide } from '../../src/recipes/sql/guide/sql-decoding-guide.js';
import { guideEpisode, queryTurn, type SketchStep } from './guide-episode.js';

const start = { question: 'What is the loyalty tier of the customer Victor Brooks, with 230 to 1200 points?', tables: ['customer', 'order_item', 'orders', 'product'] };
const prompt = guideEpisode(start);
const sql = (text: string) => `<tool_call>\n{"name": "query", "arguments": {"sql":"${text}`;
const unknownColumn = (column: string, candidates: { table: string; columns: string[]; more?: number }[] = []): SqlFeedback => ({
  kind: 'unknown_column',
  column,
  candidates: candidates.map((c) => ({ table: c.table, columns: c.columns, more: c.more ?? 0 })),
});
const failedQuery = (query: string, feedback: SqlFeedback): SketchStep => ({ turn: queryTurn(query), tool: 'query', failed: true, feedback: [feedback] });
/** The guide's nudges for the next token (none, one, or several whose biases add up). */
const nudges = (context: SqlGuideContext, generated: string) => [sqlDecodingGuide(context)(generated) ?? []].flat();
const biases = (context: SqlGuideContext, generated: string) => nudges(context, generated).map((n) => n.bias);
const favours = (context: SqlGuideContext, generated: string, token: string) => nudges(context, generated).some((n) => n.favours(token));
const favoured = (generated: string, tokens: readonly string[]) => tokens.filter((t) => favours(prompt, generated, t));

describe('sqlDecodingGuide', () => {
  it('inside a literal, favours continuing a word sequence of the conversation, and closing it after a whole word', () => {
    const opened = sql("SELECT loyalty_tier FROM customer WHERE name = '");
    expect(biases(prompt, opened)).toEqual([COPY_BIAS]);
    expect(favoured(opened, ['Victor', 'V', 'Vic', 'Nik', 'Brooks', "'"])).toEqual(['Victor', 'V', 'Vic', 'Brooks']);
    expect(favoured(opened + 'Vic', ['tor', 'to', 'ky', "'"])).toEqual(['tor', 'to']);
    expect(favoured(opened + 'Victor', [' Brooks', ' B', ' Smith', "'", "'\"}}"])).toEqual([' Brooks', ' B', "'", "'\"}}"]);
    // Nothing in the conversation continues it: no nudge.
    expect(sqlDecodingGuide(prompt)(opened + 'Qx')).toBeUndefined();
  });

  it('inside a number, favours the digits of a number of the conversation', () => {
    expect(favoured(sql('SELECT COUNT(*) FROM customer WHERE points BETWEEN 230 AND 1'), ['200', '2', '30', ' ', ')'])).toEqual(['200', '2']);
    expect(favoured(sql('SELECT COUNT(*) FROM customer WHERE points BETWEEN 230'), [' AND', '0', '"'])).toEqual([' AND', '"']);
    // A sentence's full stop after a number is not a decimal point: the number may end there.
    const sentence = guideEpisode({ question: 'Count the ports founded in 1900.', tables: ['port'] });
    expect(favours(sentence, sql('SELECT COUNT(*) FROM port WHERE year = 1900'), '"')).toBe(true);
    expect(favours(guideEpisode({ question: 'Rated above 1.5?' }), sql('SELECT * FROM t WHERE r > 1'), '.')).toBe(true);
    // Digits inside a name are not a number.
    expect(sqlDecodingGuide(prompt)(sql('SELECT t1'))).toBeUndefined();
  });

  describe('where a value starts, the question\'s values the query has not written yet', () => {
    const asking = (question: string) => guideEpisode({ question, tables: ['customer', 'patient', 'student'] });
    /** The tokens the `index`-th nudge favours (the copy nudge comes first where it speaks). */
    const favouredBy = (question: string, generated: string, index: number, tokens: readonly string[]) =>
      tokens.filter((t) => nudges(asking(question), generated)[index]?.favours(t));

    it('a literal after the query\'s first one: another of the question\'s values', () => {
      const tiers = 'How many customers have a loyalty tier of bronze, silver or gold?';
      const first = sql("SELECT COUNT(*) FROM customer WHERE loyalty_tier IN ('");
      // The first literal gets the copy nudge alone.
      expect(biases(asking(tiers), first)).toEqual([COPY_BIAS]);
      const second = sql("SELECT COUNT(*) FROM customer WHERE loyalty_tier IN ('gold', '");
      expect(biases(asking(tiers), second)).toEqual([COPY_BIAS, UNUSED_VALUE_BIAS]);
      expect(favouredBy(tiers, second, 1, ['bronze', 'sil', 'gold', 'go', 'Paris'])).toEqual(['bronze', 'sil']);
      // Every value written: nothing more to cover (words the question has besides them still count as values).
      expect(favouredBy('Shelf A or C?', sql("SELECT COUNT(*) FROM t WHERE shelf = 'A' OR shelf = '"), 1, ['C', 'A'])).toEqual(['C']);
    });

    it('a date: the question\'s dates in ISO form, those not written first', () => {
      const range = 'Which students have a birth date between June 29, 2010 and July 27, 2010?';
      const opened = sql("SELECT name FROM student WHERE birth_date BETWEEN '201");
      expect(biases(asking(range), opened)).toEqual([COPY_BIAS, DATE_BIAS]);
      expect(favouredBy(range, opened, 0, ['0', '0-0', '7'])).toEqual(['0', '0-0']);
      expect(favouredBy(range, opened + '0-0', 1, ['6', '7', '1'])).toEqual(['6', '7']);
      const second = sql("SELECT name FROM student WHERE birth_date BETWEEN '2010-06-29' AND '2010-0");
      expect(favouredBy(range, second, 1, ['6', '7'])).toEqual(['7']);
      expect(favouredBy(range, sql("SELECT name FROM student WHERE birth_date > '2010-07-27"), 1, ["'", '1'])).toEqual(["'"]);
    });

    it('a number: the question\'s first number not written yet, with its space where the query has none', () => {
      const prices = 'Count the concerts with a ticket price from $39 to $65 (both included).';
      expect(favouredBy(prices, sql('SELECT COUNT(*) FROM concert WHERE ticket_price BETWEEN'), 0, [' 3', ' 39', ' 6', '3', ' 5'])).toEqual([' 3', ' 39', '3']);
      expect(favouredBy(prices, sql('SELECT COUNT(*) FROM concert WHERE ticket_price BETWEEN 39 AND '), 0, ['6', '65', '3', ' 6'])).toEqual(['6', '65']);
      expect(favouredBy(prices, sql('SELECT COUNT(*) FROM concert WHERE ticket_price >='), 0, [' 39'])).toEqual([' 39']);
      // Not where no number may come, and not once every number is written.
      expect(favouredBy(prices, sql('SELECT COUNT(*) FROM concert WHERE ticket_price'), 0, [' 39'])).toEqual([]);
      expect(favouredBy(prices, sql('SELECT COUNT(*) FROM concert WHERE ticket_price BETWEEN 39 AND 65 OR x ='), 0, [' 39', ' 65'])).toEqual([]);
    });

    it('a LIKE pattern copies the question\'s words between its percent signs', () => {
      const word = 'How many courses have the word "Seminar" in their title?';
      expect(favouredBy(word, sql("SELECT COUNT(*) FROM course WHERE title LIKE '%Semi"), 0, ['nar', 'fem'])).toEqual(['nar']);
      expect(favouredBy(word, sql("SELECT COUNT(*) FROM course WHERE title LIKE '%Seminar"), 0, ["%'", "'", 's'])).toEqual(["%'", "'"]);
    });
  });

  it('after FROM or JOIN, favours the listed tables, strongly, and more gently those the question names', () => {
    const from = sql('SELECT COUNT(*) FROM');
    expect(biases(prompt, from)).toEqual([TABLE_BIAS, TABLE_COPY_BIAS]);
    expect(nudges(prompt, from).map((n) => [' customer', ' cust', ' orders', ' product'].filter((t) => n.favours(t)))).toEqual([[' customer', ' cust', ' orders', ' product'], [' customer', ' cust']]);
    // Plurals, and names with underscores written as words; a question that names no table gets the constraint alone.
    const asking = (question: string) => guideEpisode({ question, tables: ['category', 'order_item', 'reading', 'box'] });
    const named = (question: string) => nudges(asking(question), from)[1] === undefined ? [] : [' category', ' order_item', ' reading', ' box'].filter((t) => nudges(asking(question), from)[1]!.favours(t));
    expect(named('How many readings are there?')).toEqual([' reading']);
    expect(named('List the categories and their boxes.')).toEqual([' category', ' box']);
    expect(named('Count the order items.')).toEqual([' order_item']);
    expect(named('How many readers?')).toEqual([]);
    expect(biases(asking('How many?'), from)).toEqual([TABLE_BIAS]);
    expect(favoured(from, [' customer', ' cust', ' order', ' patient', ' product'])).toEqual([' customer', ' cust', ' order', ' product']);
    expect(favoured(sql('SELECT * FROM customer AS T1 JOIN ord'), ['ers', 'er_item', 'er', 'inal'])).toEqual(['ers', 'er_item', 'er']);
    // A whole table name may end there; a longer one may go on.
    expect(favoured(sql('SELECT * FROM orders'), [' WHERE', '_x', 'x'])).toEqual([' WHERE']);
    expect(favoured(sql('SELECT * FROM product'), [' WHERE', '_x'])).toEqual([' WHERE']);
    expect(sqlDecodingGuide(prompt)(sql('SELECT * FROM zzz'))).toBeUndefined();
  });

  it('says nothing elsewhere, or where the prompt lists no tables', () => {
    expect(sqlDecodingGuide(prompt)(sql('SELECT name'))).toBeUndefined();
    expect(sqlDecodingGuide(prompt)('<tool_call>\n{"name": "answer", "arguments": {"value":"it\'s"}')).toBeUndefined();
    expect(sqlDecodingGuide(guideEpisode({ question: 'How many?' }))(sql('SELECT COUNT(*) FROM'))).toBeUndefined();
  });

  it('in an answer, favours repeating the latest query that ran, as long as the answer has repeated it so far', () => {
    const ran = (response: Omit<SketchStep, 'turn'>) => guideEpisode(start, [{ turn: queryTurn("SELECT COUNT(*) FROM orders WHERE status = 'Blues'"), tool: 'query', ...response }]);
    const context = ran({ result: '| COUNT(*) |\n| 19 |' });
    const answer = (text: string) => `<tool_call>\n{"name": "answer", "arguments": {"value":"${text}`;
    expect(biases(context, answer('SELECT COUNT(*) '))).toEqual([REPEAT_BIAS]);
    expect(['FROM', 'WHERE', 'FR'].filter((t) => favours(context, answer('SELECT COUNT(*) '), t))).toEqual(['FROM', 'FR']);
    // With the table nudge after FROM, and the literal nudge inside a value: both speak, and their biases add up.
    expect(biases(context, answer('SELECT COUNT(*) FROM'))).toEqual([REPEAT_BIAS, TABLE_BIAS, TABLE_COPY_BIAS]);
    const literal = answer("SELECT COUNT(*) FROM orders WHERE status = 'B");
    expect(biases(context, literal)).toEqual([REPEAT_BIAS, COPY_BIAS]);
    expect(nudges(context, literal).map((n) => ['lues', 'ock'].filter((t) => n.favours(t)))).toEqual([['lues'], ['lues']]);
    expect(favours(context, answer("SELECT COUNT(*) FROM orders WHERE status = 'Blues'"), '"}}')).toBe(true);
    // Once the answer departs from the query, only spelling; after a query that failed, no repeat.
    expect(biases(context, answer('SELECT SUM('))).toEqual([]);
    expect(biases(ran({ failed: true, feedback: [unknownColumn('status')] }), answer('SELECT COUNT(*) '))).toEqual([]);
  });

  describe('where the conversation shows every table\'s columns', () => {
    const listed = guideEpisode({ ...start, columns: ['id, name, loyalty_tier, points', 'id, qty', 'id, customer_id', 'id, title'] });
    const known = (generated: string, tokens: readonly string[]) => tokens.filter((t) => favours(listed, generated, t));

    it('keeps each word of a query a column, a table, a keyword or function, or an alias the query defines', () => {
      const where = sql('SELECT COUNT(*) FROM customer WHERE ');
      // The question names two columns ("loyalty tier", "points"): the gentler column nudge speaks too.
      expect(biases(listed, where)).toEqual([IDENTIFIER_BIAS, COLUMN_COPY_BIAS]);
      expect(known(where, ['points', ' points', 'loyal', 'level', 'patient', 'NOT', ' (', "'", '5'])).toEqual(['points', ' points', 'loyal', 'NOT', ' (', "'", '5']);
      expect(known(where + 'loyal', ['ty_tier', 'ty', 'ty_level', ' ', '_tier'])).toEqual(['ty_tier', 'ty']);
      // A word ends only where it is whole.
      expect(known(where + 'loyalty', [' =', '_tier', ','])).toEqual(['_tier']);
      expect(known(sql('SELECT count'), ['(*)', '(', 'er'])).toEqual(['(*)', '(']);
      // A token that finishes one word and writes another: both are checked (` patient` after `WHERE` used to pass).
      expect(known(sql('SELECT COUNT(*) FROM customer WHERE'), [' points', ' patient', ' =', ' loyal'])).toEqual([' points', ' =', ' loyal']);
      expect(known(sql('SELECT na'), ['me,', 'me, points', 'me, pts', 'me pts'])).toEqual(['me,', 'me, points']);
      // SQLite's other words: window and math functions, collations, type names.
      expect(known(sql('SELECT '), ['ROW_NUMBER', 'strftime', 'ROUND', 'julianday', 'Zap'])).toEqual(['ROW_NUMBER', 'strftime', 'ROUND', 'julianday']);
      expect(known(sql('SELECT name FROM customer ORDER BY name COLLATE '), ['NOCASE', 'CAST', 'CASTLE'])).toEqual(['NOCASE', 'CAST']);
      expect(known(sql('SELECT T1.'), ['name', 'nam', 'nme'])).toEqual(['name', 'nam']);
      expect(known(sql('SELECT c.name FROM customer AS c WHERE c'), ['.', 'x'])).toEqual(['.']);
      // An alias being defined is free, as is an answer's SQL checked like a query's.
      expect(sqlDecodingGuide(listed)(sql('SELECT * FROM customer AS '))).toBeUndefined();
      const answer = '<tool_call>\n{"name": "answer", "arguments": {"value": "SELECT na';
      expect(known(answer, ['me', 'x'])).toEqual(['me']);
      // An answer's value that is not SQL, and a closed query, are not checked.
      expect(sqlDecodingGuide(listed)('<tool_call>\n{"name": "answer", "arguments": {"value": "Gol')).toBeUndefined();
      expect(sqlDecodingGuide(listed)(sql('SELECT id FROM product"}}'))).toBeUndefined();
    });

    it('gives the same check object for the same state, so a call scans the vocabulary for it once', () => {
      const next = sqlDecodingGuide(listed);
      const check = (generated: string) => [next(generated) ?? []].flat().find((n) => n.bias === IDENTIFIER_BIAS);
      expect(check(sql('SELECT '))).toBe(check(sql('SELECT COUNT(*) FROM customer WHERE ')));
      expect(check(sql('SELECT '))).not.toBe(check(sql('SELECT c.id FROM customer AS c WHERE ')));
    });

    it('reads the columns of described tables, and says nothing while some table\'s columns are unknown', () => {
      expect(sqlDecodingGuide(prompt)(sql('SELECT COUNT(*) FROM customer WHERE '))).toBeUndefined();
      const described = (tables: readonly string[]) =>
        guideEpisode(
          start,
          tables.map((t) => ({
            turn: `<tool_call>\n{"name": "describe", "arguments": {"table_name": "${t}"}}\n</tool_call>`,
            tool: 'describe',
            result: `TABLE ${t} (3 rows)\n  id INTEGER PRIMARY KEY\n  ${t}_label TEXT NOT NULL\n  FOREIGN KEY id → x.id`,
          })),
        );
      expect(sqlDecodingGuide(described(['customer', 'orders']))(sql('SELECT '))).toBeUndefined();
      const all = described(['customer', 'order_item', 'orders', 'product']);
      expect(['product_label', 'points', 'label'].filter((t) => favours(all, sql('SELECT '), t))).toEqual(['product_label']);
    });

    it('where the question names a shown column, favours it gently where the query names a column', () => {
      const column = (generated: string) => nudges(listed, generated).find((n) => n.bias === COLUMN_COPY_BIAS);
      const favouredColumns = (generated: string, tokens: readonly string[]) => tokens.filter((t) => column(generated)?.favours(t) ?? false);
      expect(favouredColumns(sql('SELECT '), ['loyalty_tier', 'loy', 'points', 'name', 'COUNT', ' ('])).toEqual(['loyalty_tier', 'loy', 'points']);
      expect(favouredColumns(sql('SELECT COUNT(*) FROM customer WHERE'), [' points', ' name'])).toEqual([' points']);
      expect(favouredColumns(sql('SELECT MAX'), ['(points', '(name', 'points'])).toEqual(['(points']);
      expect(favouredColumns(sql('SELECT name, loy'), ['alty_tier', 'al'])).toEqual(['alty_tier', 'al']);
      // Not where a column does not come next.
      expect(favouredColumns(sql('SELECT COUNT(*) FROM customer WHERE points > 3 '), ['points', 'AND'])).toEqual([]);
      expect(favouredColumns(sql('SELECT points '), ['points'])).toEqual([]);
      // A column named by its first part ("weight" for weight_kg), not by a shorter one.
      const shipment = guideEpisode({ question: 'Which shipments weigh less than the others, by weight?', tables: ['shipment'], columns: ['id, weight_kg, id_code'] });
      expect([nudges(shipment, sql('SELECT '))].flat().find((n) => n.bias === COLUMN_COPY_BIAS)?.favours('weight_kg')).toBe(true);
    });
  });

  describe('where an unknown-column error listed some tables\' columns', () => {
    const failedSteps = [
      failedQuery("SELECT id FROM orders WHERE state = 'x'", unknownColumn('state', [{ table: 'orders', columns: ['id', 'customer_id', 'status'] }, { table: 'order_item', columns: ['id', 'qty'], more: 3 }])),
    ];
    const failed = guideEpisode(start, failedSteps);
    const answer = (text: string) => `<tool_call>\n{"name": "answer", "arguments": {"value":"${text}`;
    const checked = (generated: string, tokens: readonly string[]) => tokens.filter((t) => favours(failed, generated, t));

    it('checks a rewrite that names only those tables, with their columns', () => {
      // (The question's "customer" names `customer_id` by its first part: the column nudge speaks too.)
      expect(biases(failed, answer('SELECT id FROM orders WHERE '))).toEqual([IDENTIFIER_BIAS, COLUMN_COPY_BIAS]);
      expect(checked(answer('SELECT id FROM orders WHERE '), ['status', 'state', 'customer_id'])).toEqual(['status', 'customer_id']);
      // Before its FROM, the rewrite is taken to use the failed query's tables.
      expect(checked(answer('SELECT '), ['id', 'title'])).toEqual(['id']);
    });

    it('says nothing once the query names a table whose columns were not listed, or listed only in part', () => {
      expect(sqlDecodingGuide(failed)(answer('SELECT title FROM product WHERE '))).toBeUndefined();
      expect(sqlDecodingGuide(failed)(answer('SELECT qty FROM order_item WHERE '))).toBeUndefined();
    });

    it('at the start of the next turn, asks for a query again, in the call the policy wrote, and then checks it', () => {
      const opening = sql('');
      // Token by token through the opening, tokens that go on with it and only those; then the rewrite's own nudges.
      expect(biases(failed, '')).toEqual([RETRY_BIAS]);
      expect(checked('', ['<tool_call>', '<tool', '<tool_response>', 'I'])).toEqual(['<tool_call>', '<tool']);
      expect(checked('<tool_call>\n{"name": "', ['query', 'answer', 'qu'])).toEqual(['query', 'qu']);
      expect(checked(opening.slice(0, -1), ['"', '"SELECT', '""'])).toEqual(['"', '"SELECT']);
      // Then the rewrite's own nudges (the failed query's text, the schema's check).
      expect(biases(failed, opening)).toEqual([REPAIR_BIAS]);
      expect(biases(failed, `${opening}SELECT `)).toEqual([REPAIR_BIAS, IDENTIFIER_BIAS, COLUMN_COPY_BIAS]);
      // A turn that left the opening (a model that wrote something else first) is not pulled back.
      expect(biases(failed, '<think>')).toEqual([]);
    });

    it('in the rewrite, favours the failed query\'s text, and in the unknown column\'s place the columns the error listed', () => {
      const retry = sql;
      const repair = (generated: string) => nudges(failed, retry(generated))[0]!;
      // Before the column: the failed query's text.
      expect(repair('SELECT id FROM orders WH').bias).toBe(REPAIR_BIAS);
      expect(['ERE', 'EN'].filter((t) => repair('SELECT id FROM orders WH').favours(t))).toEqual(['ERE']);
      // In the column's place: a column of the failed query's table, not a function or keyword the schema check allows.
      expect(repair('SELECT id FROM orders WHERE ').bias).toBe(REPAIR_SLOT_BIAS);
      expect(['stat', 'status', 'cust', 'sign', 'state', 'status ='].filter((t) => repair('SELECT id FROM orders WHERE ').favours(t))).toEqual(['stat', 'status', 'cust', 'status =']);
      // A token that finishes the text before the place and starts the name is held to the same.
      expect([' status', ' sign'].filter((t) => repair('SELECT id FROM orders WHERE').favours(t))).toEqual([' status']);
      // Inside the new name: it may go on to a listed column; once whole, the failed query's text after the column.
      expect(repair('SELECT id FROM orders WHERE stat').bias).toBe(REPAIR_SLOT_BIAS);
      expect(['us', 'us =', 'e', ' ='].filter((t) => repair('SELECT id FROM orders WHERE stat').favours(t))).toEqual(['us', 'us =']);
      expect([' =', " = 'x'", ' <'].filter((t) => repair('SELECT id FROM orders WHERE status').favours(t))).toEqual([' =', " = 'x'"]);
      expect(repair("SELECT id FROM orders WHERE status = 'x'").favours('"}}')).toBe(true);
      // Once the rewrite leaves the failed query's text, or in an answer, it says nothing of it.
      expect(biases(failed, retry('SELECT name '))).toEqual([IDENTIFIER_BIAS, COLUMN_COPY_BIAS]);
      expect(biases(failed, answer('SELECT id FROM orders WH'))).toEqual([IDENTIFIER_BIAS, COLUMN_COPY_BIAS]);
    });

    it(`asks for at most ${RETRIES} retry: after that many failed queries, the policy chooses`, () => {
      const failAgain = (steps: readonly SketchStep[]) => [...steps, failedQuery('SELECT id FROM orders WHERE stat = 1', unknownColumn('stat', [{ table: 'orders', columns: ['id', 'customer_id', 'status'] }]))];
      let steps: readonly SketchStep[] = failedSteps;
      for (let n = 1; n < RETRIES; n++) steps = failAgain(steps);
      expect(biases(guideEpisode(start, steps), '')).toEqual([RETRY_BIAS]);
      expect(biases(guideEpisode(start, failAgain(steps)), '')).toEqual([]);
      // After a query that ran, the answer is the policy's: no retry asked.
      const ran = guideEpisode(start, [{ turn: queryTurn('SELECT 1'), tool: 'query', result: '| 1 |' }]);
      expect(biases(ran, '')).toEqual([]);
    });
  });
});

describe('sqlDecodingGuide after a query whose value another column holds (SQLEnv\'s value hint)', () => {
  const harbour = { question: 'How many ports are in Lisbon?', tables: ['port', 'ship'] };
  const empty = '| COUNT(*) |\n| 0 |';
  const notFound = (value: string, more: Partial<ValueNotFoundFeedback>): ValueNotFoundFeedback => ({
    kind: 'value_not_found',
    column: 'name',
    value,
    lookedUpIn: 'port.name',
    closest: ['Lisbon Quay', 'Leith', 'Bilbao'],
    heldBy: [],
    questionValues: [],
    ...more,
  });
  const asked = (value: string, result: string, feedback: readonly SqlFeedback[]): SketchStep => ({ turn: queryTurn(`SELECT COUNT(*) FROM port WHERE name = '${value}'`), tool: 'query', result, feedback });
  const hintedStep = asked('Lisbon', empty, [notFound('Lisbon', { heldBy: [{ column: 'port.city', value: 'Lisbon' }] })]);
  const hinted = guideEpisode(harbour, [hintedStep]);

  it('asks for a query again, and in the compared column\'s place favours the column the hint named', () => {
    expect(biases(hinted, '')).toEqual([RETRY_BIAS]);
    const repair = (generated: string) => nudges(hinted, sql(generated))[0]!;
    expect(repair('SELECT COUNT(*) FROM po').bias).toBe(REPAIR_BIAS);
    expect(repair('SELECT COUNT(*) FROM port WHERE ').bias).toBe(REPAIR_SLOT_BIAS);
    expect(['city', 'ci', 'name', 'country'].filter((t) => repair('SELECT COUNT(*) FROM port WHERE ').favours(t))).toEqual(['city', 'ci']);
    expect([" = 'Lisbon'", ' > 3'].filter((t) => repair('SELECT COUNT(*) FROM port WHERE city').favours(t))).toEqual([" = 'Lisbon'"]);
  });

  it("after a hint that links the question's value to a column, asks for the query with that comparison", () => {
    const linked = guideEpisode(harbour, [asked('Sals', empty, [notFound('Sals', { closest: ['Salt Quay', 'Leith', 'Bilbao'], questionValues: [{ column: 'port.city', value: 'Lisbon' }] })])]);
    expect(biases(linked, '')).toEqual([RETRY_BIAS]);
    const repair = (generated: string) => nudges(linked, sql(generated))[0]!;
    expect(repair('SELECT COUNT(*) FROM port WHERE ').bias).toBe(REPAIR_BIAS);
    expect(['city', 'ci', 'name'].filter((t) => repair('SELECT COUNT(*) FROM port WHERE ').favours(t))).toEqual(['city', 'ci']);
    expect(["Lis", "Sals", "Lisbon'"].filter((t) => repair("SELECT COUNT(*) FROM port WHERE city = '").favours(t))).toEqual(['Lis', "Lisbon'"]);
    expect(repair("SELECT COUNT(*) FROM port WHERE city = 'Lisbon'").favours('"}}')).toBe(true);
  });

  it('asks for nothing after a hint that names no other column, or a result with rows', () => {
    expect(biases(guideEpisode(harbour, [asked('Lisbon', empty, [notFound('Lisbon', {})])]), '')).toEqual([]);
    expect(biases(guideEpisode(harbour, [asked('Lisbon', '| COUNT(*) |\n| 4 |', [])]), '')).toEqual([]);
  });

  it(`counts the hint among the ${RETRIES} retries asked: after an unknown-column error, it asks for a second one only if RETRIES allows`, () => {
    const town = failedQuery('SELECT COUNT(*) FROM port WHERE town = 1', unknownColumn('town', [{ table: 'port', columns: ['id', 'name', 'city'] }]));
    const failedFirst = (n: number) => guideEpisode(harbour, [...Array.from({ length: n }, () => town), hintedStep]);
    expect(biases(failedFirst(RETRIES - 1), '')).toEqual([RETRY_BIAS]);
    expect(biases(failedFirst(RETRIES), '')).toEqual([]);
  });
});
