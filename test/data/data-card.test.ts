import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledDomains } from '../../data/generator/build-dataset.js';
import { UNSEEN_DB_IDS, VALIDATION_UNSEEN_DBS } from '../../data/generator/config.js';
import { formatSchemaSummary } from '../../data/generator/schema-summary.js';
import { cardSection, DataCardError, sectionMarkers, withCardSection } from '../../data/lib/data-card.js';
import { computeDatasetStats, formatDatasetStats } from '../../data/lib/dataset-stats.js';
import { bundledRoot } from '../../data/lib/spider-layout.js';

const card = readFileSync(join(bundledRoot(), '..', 'README.md'), 'utf8');

describe('data card (data/README.md)', () => {
  it('shows the statistics that `sqlenv data stats --dataset bundled` prints for the committed data', () => {
    expect(cardSection(card, 'stats')).toBe(formatDatasetStats(computeDatasetStats(bundledRoot())));
  });

  it('describes the schemas the generator builds', () => {
    expect(cardSection(card, 'schemas')).toBe(formatSchemaSummary(bundledDomains(), UNSEEN_DB_IDS, VALIDATION_UNSEEN_DBS.map((d) => d.id)));
  });

  it('names a licence for the data', () => {
    expect(card).toMatch(/## Licence[\s\S]*CC0 1\.0/);
  });
});

describe('card sections', () => {
  const { start, end } = sectionMarkers('stats');
  it('replaces only the text between the markers', () => {
    const text = `# Card\n${start}\nold\n${end}\ntail`;
    const updated = withCardSection(text, 'stats', 'new table');
    expect(cardSection(updated, 'stats')).toBe('new table');
    expect(updated.startsWith('# Card\n')).toBe(true);
    expect(updated.endsWith(`${end}\ntail`)).toBe(true);
    expect(withCardSection(updated, 'stats', 'new table')).toBe(updated);
  });

  it('explains missing markers', () => {
    expect(() => cardSection('# no markers', 'schemas')).toThrow(DataCardError);
  });
});
