/**
 * All generic templates, easiest first. Domain templates are added per database.
 */
import { EASY_TEMPLATES } from './generic-easy.js';
import { EXTRA_TEMPLATES } from './generic-extra.js';
import { HARD_TEMPLATES } from './generic-hard.js';
import { MEDIUM_TEMPLATES } from './generic-medium.js';
import type { QuestionTemplate } from './template.js';

/**
 * Every generic template across the four tiers.
 *
 * @example
 * ```ts
 * instantiateTemplates(view, conn, [...GENERIC_TEMPLATES, ...domain.templates], seed, seen, rejected);
 * ```
 */
export const GENERIC_TEMPLATES: readonly QuestionTemplate[] = [
  ...EASY_TEMPLATES, ...MEDIUM_TEMPLATES, ...HARD_TEMPLATES, ...EXTRA_TEMPLATES,
];
