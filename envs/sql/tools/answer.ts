import type { SqlToolSpec } from './tool-spec.js';

/**
 * `answer(value)`: submit the final answer and end the episode. The value may be a scalar, a
 * list, rows (JSON), or text such as "1, 2, 3", a Markdown table or CSV.
 *
 * @example
 * ```ts
 * { name: 'answer', arguments: { value: 42 } }
 * { name: 'answer', arguments: { value: [['Joe', 32], ['Ann', 41]] } }
 * ```
 */
export const ANSWER_TOOL: SqlToolSpec = {
  definition: {
    name: 'answer',
    description:
      'Submit your final answer and end the episode. Give the value itself: a number or text, a list of values, or rows (a list of lists) when the answer has several columns.',
    parameters: {
      type: 'object',
      properties: {
        value: {
          type: ['string', 'number', 'boolean', 'array', 'object'],
          description: 'The answer: a scalar, a list of values, or a list of rows.',
        },
      },
      required: ['value'],
      additionalProperties: false,
    },
  },
  nameAliases: ['finalanswer', 'submit', 'submitanswer', 'respond', 'final', 'done', 'finish', 'giveanswer', 'return', 'result'],
  argumentAliases: { answer: 'value', final_answer: 'value', result: 'value', values: 'value', response: 'value', text: 'value', val: 'value', ans: 'value', content: 'value' },
  positional: ['value'],
  example: () => ({ name: 'answer', arguments: { value: '...' } }),
};
