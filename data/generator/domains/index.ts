/**
 * The bundled domains, one database each, in build order.
 */
import type { DomainSpec } from '../schema.js';
import { concertsDomain } from './concerts.js';
import { flightsDomain } from './flights.js';
import { hospitalDomain } from './hospital.js';
import { hrDomain } from './hr.js';
import { libraryDomain } from './library.js';
import { moviesDomain } from './movies.js';
import { museumsDomain } from './museums.js';
import { musicStreamingDomain } from './music-streaming.js';
import { realEstateDomain } from './real-estate.js';
import { retailDomain } from './retail.js';
import { schoolDomain } from './school.js';
import { sportsDomain } from './sports.js';

/**
 * Every domain the bundled build writes.
 *
 * @example
 * ```ts
 * ALL_DOMAINS.map((d) => d.id); // ['concerts', 'flights', …]
 * ```
 */
export const ALL_DOMAINS: readonly DomainSpec[] = [
  concertsDomain, flightsDomain, hospitalDomain, libraryDomain, schoolDomain, retailDomain,
  sportsDomain, moviesDomain, hrDomain, museumsDomain, realEstateDomain, musicStreamingDomain,
];
