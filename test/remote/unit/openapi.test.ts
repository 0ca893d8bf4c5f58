import { afterAll, describe, expect, it } from 'vitest';
import { make } from '../../../src/index.js';
import { buildOpenApiDocument, OPENENV_HTTP_API_VERSION, servesRoute } from '../../../src/remote/index.js';
import { describeEnv } from '../../../src/remote/server/env-description.js';

describe('buildOpenApiDocument', () => {
  const env = make('GuessNumber-v0');
  const description = describeEnv('GuessNumber-v0', env, '9.9.9');
  afterAll(() => env.close());

  it("puts the env's own schemas in the components and every served route in the paths", () => {
    const doc = buildOpenApiDocument(description, 'simulation');
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'GuessNumber-v0', version: OPENENV_HTTP_API_VERSION, 'x-sqlenv-version': '9.9.9', 'x-openenv-mode': 'simulation' });
    expect(doc.components.schemas['Action']).toBe(description.schema.action);
    expect(doc.components.schemas['Observation']).toBe(description.schema.observation);
    expect(doc.components.schemas['State']).toBe(description.schema.state);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/health', '/metadata', '/schema', '/openapi.json', '/mcp', '/reset', '/step', '/state']));
    expect(JSON.stringify(doc.paths['/step'])).toContain('#/components/schemas/StepRequest');
  });

  it('leaves /reset, /step and /state out in production mode', () => {
    const doc = buildOpenApiDocument(description, 'production');
    for (const path of ['/reset', '/step', '/state']) {
      expect(doc.paths).not.toHaveProperty(path);
      expect(servesRoute('production', path)).toBe(false);
      expect(servesRoute('simulation', path)).toBe(true);
    }
    expect(doc.paths).toHaveProperty('/mcp');
  });
});
