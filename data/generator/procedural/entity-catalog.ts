/**
 * The building blocks of procedurally generated databases: kinds of entity (a table noun and how
 * its rows are named) and attributes (a column noun, its role and how its values are made). A
 * procedural domain draws a few entities, gives each a few attributes, and links them with
 * foreign keys, so the same question templates meet tables and columns they have never seen.
 *
 * The nouns deliberately avoid the bundled test databases held out of training
 * (`museum_collection`, `real_estate`, `music_streaming`): a model pre-trained on procedural
 * databases has still never seen those tables.
 */
import { category, date, integer, nameColumn, real } from '../columns.js';
import { inventedTitle, personName } from '../random-values.js';
import type { ColumnSpec } from '../schema.js';
import { CITY_NAMES } from '../words.js';

/** How the rows of an entity are named: people, invented titles, or a noun with a number. */
export type NameStyle = 'person' | 'title' | 'numbered';

/** A kind of entity: one table. */
export interface EntityKind {
  readonly table: string;
  readonly singular: string;
  readonly plural: string;
  readonly nameStyle: NameStyle;
  /** Column name of the naming column (`name`, `title`, `code`). */
  readonly nameColumn: string;
  /** Attribute ids (keys of {@link ATTRIBUTES}) this entity may carry. */
  readonly attributes: readonly string[];
}

/** An attribute: builds its column (the name may be varied by the caller). */
export type AttributeBuilder = (column: string) => ColumnSpec;

const cat = (label: string, values: readonly string[], phrase?: (v: string) => string): AttributeBuilder =>
  (column) => category(column, label, values, phrase ? { phrase } : undefined);
const int = (label: string, lo: number, hi: number, summable = true): AttributeBuilder =>
  (column) => integer(column, label, lo, hi, { summable });
const money = (label: string, lo: number, hi: number): AttributeBuilder =>
  (column) => real(column, label, lo, hi, 2, { currency: '$', summable: true });
const day = (label: string, from: string, to: string): AttributeBuilder => (column) => date(column, label, from, to);

/**
 * Every attribute, by id; the id is also the default column name.
 *
 * @example
 * ```ts
 * ATTRIBUTES['city']!('city').role; // 'category'
 * ```
 */
export const ATTRIBUTES: Readonly<Record<string, AttributeBuilder>> = {
  city: cat('city', CITY_NAMES.slice(0, 12), (v) => `in ${v}`),
  region: cat('region', ['North', 'South', 'East', 'West', 'Central']),
  status: cat('status', ['active', 'paused', 'closed', 'pending']),
  size_class: cat('size class', ['small', 'medium', 'large']),
  colour: cat('colour', ['red', 'blue', 'green', 'black', 'white', 'yellow']),
  tier: cat('tier', ['bronze', 'silver', 'gold', 'platinum']),
  category: cat('category', ['standard', 'premium', 'budget', 'special']),
  material: cat('material', ['steel', 'wood', 'glass', 'plastic', 'stone']),
  fuel_type: cat('fuel type', ['diesel', 'petrol', 'electric', 'hybrid']),
  cuisine: cat('cuisine', ['Italian', 'Thai', 'Mexican', 'Indian', 'Greek', 'Korean']),
  skill_level: cat('skill level', ['beginner', 'intermediate', 'advanced']),
  shift: cat('shift', ['morning', 'afternoon', 'night']),
  weekday: cat('weekday', ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']),
  climate: cat('climate', ['tropical', 'arid', 'temperate', 'polar']),
  priority: cat('priority', ['low', 'normal', 'high', 'urgent']),
  price: money('price', 2, 400),
  cost: money('cost', 10, 5000),
  fee: money('fee', 5, 300),
  revenue: money('revenue', 1000, 90000),
  quantity: int('quantity', 1, 60),
  capacity: int('capacity', 10, 5000),
  rating: int('rating', 1, 5, false),
  score: int('score', 0, 100, false),
  age: int('age', 18, 80, false),
  weight_kg: (column) => real(column, 'weight in kilograms', 0.5, 900, 1, { summable: true }),
  length_m: (column) => real(column, 'length in metres', 1, 400, 1, { summable: true }),
  height_m: (column) => real(column, 'height in metres', 1, 4000, 0, { summable: false }),
  duration_minutes: int('duration in minutes', 5, 240),
  distance_km: int('distance in kilometres', 1, 3000),
  staff_count: int('number of staff', 2, 400),
  built_year: int('year built', 1900, 2023, false),
  founded_year: int('founding year', 1850, 2022, false),
  start_date: day('start date', '2018-01-01', '2024-12-31'),
  created_on: day('creation date', '2015-01-01', '2024-12-31'),
  due_date: day('due date', '2022-01-01', '2025-12-31'),
  visit_date: day('visit date', '2020-01-01', '2024-12-31'),
};

/**
 * The kinds of entity procedural databases are made of.
 *
 * @example
 * ```ts
 * ENTITY_KINDS.find((e) => e.table === 'warehouse')?.plural; // 'warehouses'
 * ```
 */
export const ENTITY_KINDS: readonly EntityKind[] = [
  { table: 'warehouse', singular: 'warehouse', plural: 'warehouses', nameStyle: 'numbered', nameColumn: 'name', attributes: ['city', 'region', 'capacity', 'staff_count', 'built_year', 'status'] },
  { table: 'supplier', singular: 'supplier', plural: 'suppliers', nameStyle: 'title', nameColumn: 'name', attributes: ['city', 'tier', 'founded_year', 'rating', 'region'] },
  { table: 'shipment', singular: 'shipment', plural: 'shipments', nameStyle: 'numbered', nameColumn: 'code', attributes: ['weight_kg', 'cost', 'priority', 'start_date', 'status', 'distance_km'] },
  { table: 'vehicle', singular: 'vehicle', plural: 'vehicles', nameStyle: 'numbered', nameColumn: 'plate', attributes: ['fuel_type', 'colour', 'built_year', 'weight_kg', 'status'] },
  { table: 'driver', singular: 'driver', plural: 'drivers', nameStyle: 'person', nameColumn: 'name', attributes: ['age', 'city', 'shift', 'rating', 'start_date'] },
  { table: 'route', singular: 'route', plural: 'routes', nameStyle: 'numbered', nameColumn: 'name', attributes: ['distance_km', 'duration_minutes', 'region', 'priority'] },
  { table: 'farm', singular: 'farm', plural: 'farms', nameStyle: 'title', nameColumn: 'name', attributes: ['region', 'climate', 'staff_count', 'founded_year', 'size_class'] },
  { table: 'crop', singular: 'crop', plural: 'crops', nameStyle: 'title', nameColumn: 'name', attributes: ['climate', 'price', 'weight_kg', 'category'] },
  { table: 'harvest', singular: 'harvest', plural: 'harvests', nameStyle: 'numbered', nameColumn: 'code', attributes: ['weight_kg', 'visit_date', 'quantity', 'revenue', 'rating'] },
  { table: 'restaurant', singular: 'restaurant', plural: 'restaurants', nameStyle: 'title', nameColumn: 'name', attributes: ['city', 'cuisine', 'rating', 'capacity', 'founded_year', 'tier'] },
  { table: 'dish', singular: 'dish', plural: 'dishes', nameStyle: 'title', nameColumn: 'name', attributes: ['cuisine', 'price', 'duration_minutes', 'category', 'rating'] },
  { table: 'chef', singular: 'chef', plural: 'chefs', nameStyle: 'person', nameColumn: 'name', attributes: ['age', 'skill_level', 'city', 'start_date', 'shift'] },
  { table: 'hotel', singular: 'hotel', plural: 'hotels', nameStyle: 'title', nameColumn: 'name', attributes: ['city', 'tier', 'capacity', 'built_year', 'rating', 'region'] },
  { table: 'guest', singular: 'guest', plural: 'guests', nameStyle: 'person', nameColumn: 'name', attributes: ['age', 'city', 'tier', 'created_on'] },
  { table: 'reservation', singular: 'reservation', plural: 'reservations', nameStyle: 'numbered', nameColumn: 'code', attributes: ['visit_date', 'fee', 'quantity', 'status', 'priority'] },
  { table: 'gym', singular: 'gym', plural: 'gyms', nameStyle: 'title', nameColumn: 'name', attributes: ['city', 'capacity', 'fee', 'founded_year', 'size_class'] },
  { table: 'trainer', singular: 'trainer', plural: 'trainers', nameStyle: 'person', nameColumn: 'name', attributes: ['age', 'skill_level', 'rating', 'shift', 'fee'] },
  { table: 'workout', singular: 'workout', plural: 'workouts', nameStyle: 'title', nameColumn: 'title', attributes: ['duration_minutes', 'skill_level', 'weekday', 'capacity', 'score'] },
  { table: 'bakery', singular: 'bakery', plural: 'bakeries', nameStyle: 'title', nameColumn: 'name', attributes: ['city', 'staff_count', 'revenue', 'founded_year', 'rating'] },
  { table: 'recipe', singular: 'recipe', plural: 'recipes', nameStyle: 'title', nameColumn: 'title', attributes: ['duration_minutes', 'skill_level', 'cuisine', 'rating', 'created_on'] },
  { table: 'ingredient', singular: 'ingredient', plural: 'ingredients', nameStyle: 'title', nameColumn: 'name', attributes: ['price', 'weight_kg', 'category', 'colour'] },
  { table: 'planet', singular: 'planet', plural: 'planets', nameStyle: 'title', nameColumn: 'name', attributes: ['climate', 'distance_km', 'weight_kg', 'size_class'] },
  { table: 'mission', singular: 'mission', plural: 'missions', nameStyle: 'title', nameColumn: 'name', attributes: ['start_date', 'cost', 'duration_minutes', 'status', 'priority'] },
  { table: 'astronaut', singular: 'astronaut', plural: 'astronauts', nameStyle: 'person', nameColumn: 'name', attributes: ['age', 'skill_level', 'start_date', 'score', 'city'] },
  { table: 'volcano', singular: 'volcano', plural: 'volcanoes', nameStyle: 'title', nameColumn: 'name', attributes: ['height_m', 'region', 'climate', 'status'] },
  { table: 'station', singular: 'station', plural: 'stations', nameStyle: 'numbered', nameColumn: 'name', attributes: ['city', 'built_year', 'capacity', 'region', 'staff_count'] },
  { table: 'sensor', singular: 'sensor', plural: 'sensors', nameStyle: 'numbered', nameColumn: 'serial', attributes: ['material', 'created_on', 'status', 'cost', 'priority'] },
  { table: 'reading', singular: 'reading', plural: 'readings', nameStyle: 'numbered', nameColumn: 'code', attributes: ['score', 'visit_date', 'quantity', 'weekday'] },
  { table: 'park', singular: 'park', plural: 'parks', nameStyle: 'title', nameColumn: 'name', attributes: ['city', 'region', 'length_m', 'founded_year', 'size_class', 'fee'] },
  { table: 'trail', singular: 'trail', plural: 'trails', nameStyle: 'title', nameColumn: 'name', attributes: ['length_m', 'skill_level', 'duration_minutes', 'rating', 'height_m'] },
  { table: 'hiker', singular: 'hiker', plural: 'hikers', nameStyle: 'person', nameColumn: 'name', attributes: ['age', 'city', 'skill_level', 'created_on'] },
  { table: 'bridge', singular: 'bridge', plural: 'bridges', nameStyle: 'title', nameColumn: 'name', attributes: ['length_m', 'material', 'built_year', 'city', 'cost'] },
  { table: 'ship', singular: 'ship', plural: 'ships', nameStyle: 'title', nameColumn: 'name', attributes: ['length_m', 'built_year', 'capacity', 'fuel_type', 'colour'] },
  { table: 'port', singular: 'port', plural: 'ports', nameStyle: 'title', nameColumn: 'name', attributes: ['city', 'region', 'capacity', 'staff_count', 'founded_year'] },
  { table: 'voyage', singular: 'voyage', plural: 'voyages', nameStyle: 'numbered', nameColumn: 'code', attributes: ['start_date', 'distance_km', 'cost', 'status', 'duration_minutes'] },
  { table: 'garden', singular: 'garden', plural: 'gardens', nameStyle: 'title', nameColumn: 'name', attributes: ['city', 'size_class', 'fee', 'founded_year', 'climate'] },
  { table: 'plant', singular: 'plant', plural: 'plants', nameStyle: 'title', nameColumn: 'name', attributes: ['colour', 'height_m', 'climate', 'price', 'category'] },
  { table: 'workshop', singular: 'workshop', plural: 'workshops', nameStyle: 'title', nameColumn: 'title', attributes: ['fee', 'weekday', 'skill_level', 'capacity', 'start_date'] },
  { table: 'tool', singular: 'tool', plural: 'tools', nameStyle: 'title', nameColumn: 'name', attributes: ['material', 'weight_kg', 'price', 'colour', 'quantity'] },
  { table: 'repair', singular: 'repair', plural: 'repairs', nameStyle: 'numbered', nameColumn: 'code', attributes: ['cost', 'due_date', 'priority', 'status', 'duration_minutes'] },
  { table: 'festival', singular: 'festival', plural: 'festivals', nameStyle: 'title', nameColumn: 'name', attributes: ['city', 'start_date', 'capacity', 'fee', 'weekday'] },
  { table: 'volunteer', singular: 'volunteer', plural: 'volunteers', nameStyle: 'person', nameColumn: 'name', attributes: ['age', 'shift', 'city', 'created_on', 'skill_level'] },
  { table: 'charity', singular: 'charity', plural: 'charities', nameStyle: 'title', nameColumn: 'name', attributes: ['region', 'revenue', 'founded_year', 'staff_count', 'tier'] },
  { table: 'donation', singular: 'donation', plural: 'donations', nameStyle: 'numbered', nameColumn: 'code', attributes: ['fee', 'visit_date', 'category', 'quantity'] },
  { table: 'clinic', singular: 'clinic', plural: 'clinics', nameStyle: 'title', nameColumn: 'name', attributes: ['city', 'staff_count', 'capacity', 'built_year', 'rating'] },
  { table: 'pet', singular: 'pet', plural: 'pets', nameStyle: 'title', nameColumn: 'name', attributes: ['age', 'weight_kg', 'colour', 'size_class', 'created_on'] },
  { table: 'owner', singular: 'owner', plural: 'owners', nameStyle: 'person', nameColumn: 'name', attributes: ['city', 'age', 'tier', 'created_on'] },
  { table: 'tournament', singular: 'tournament', plural: 'tournaments', nameStyle: 'title', nameColumn: 'name', attributes: ['city', 'start_date', 'fee', 'capacity', 'tier'] },
  { table: 'contestant', singular: 'contestant', plural: 'contestants', nameStyle: 'person', nameColumn: 'name', attributes: ['age', 'score', 'city', 'skill_level'] },
  { table: 'course_run', singular: 'course run', plural: 'course runs', nameStyle: 'numbered', nameColumn: 'code', attributes: ['start_date', 'fee', 'capacity', 'weekday', 'status'] },
];

/**
 * A column that names a row in the given style; `numbered` names carry the row number, so
 * they are unique by construction.
 *
 * @example
 * ```ts
 * namingColumn(ENTITY_KINDS[0]!).role; // 'name'
 * ```
 */
export function namingColumn(kind: EntityKind): ColumnSpec {
  const label = kind.nameColumn === 'name' ? 'name' : kind.nameColumn;
  if (kind.nameStyle === 'person') return nameColumn(kind.nameColumn, label, (rng) => personName(rng));
  if (kind.nameStyle === 'title') return nameColumn(kind.nameColumn, label, (rng) => inventedTitle(rng), { quoted: true });
  const prefix = kind.table.replace(/[^a-z]/g, '').slice(0, 2).toUpperCase();
  return nameColumn(kind.nameColumn, label, (_rng, ctx) => `${prefix}-${String(1000 + ctx.index * 7)}`);
}
