/** An online shop: customers, product categories, products, orders and order lines. */
import { category, categoryBy, date, integer, key, nameColumn, real, ref } from '../columns.js';
import { addDays, personName, weightedChoice } from '../random-values.js';
import type { DomainSpec } from '../schema.js';
import { CITIES } from '../words.js';
import { sampleSome, sqlLiteral } from '../questions/phrasing.js';
import type { QuestionTemplate } from '../questions/template.js';

const CATEGORIES = ['Kitchen', 'Garden', 'Electronics', 'Books', 'Toys', 'Sports', 'Clothing', 'Beauty', 'Office', 'Pet Supplies',
  'Bath', 'Lighting', 'Camping', 'Cycling', 'Music', 'Baby', 'Crafts', 'Travel', 'Automotive', 'Grocery'];
const PRODUCT_NOUNS: Record<string, readonly string[]> = {
  Kitchen: ['Kettle', 'Chef Knife', 'Frying Pan', 'Blender', 'Coffee Grinder'],
  Garden: ['Hose', 'Pruning Shears', 'Planter', 'Lawn Rake', 'Bird Feeder'],
  Electronics: ['Headphones', 'Bluetooth Speaker', 'Power Bank', 'Webcam', 'Smart Plug'],
  Books: ['Cookbook', 'Atlas', 'Notebook Set', 'Field Guide', 'Puzzle Book'],
  Toys: ['Building Blocks', 'Puzzle', 'Kite', 'Toy Train', 'Plush Bear'],
  Sports: ['Yoga Mat', 'Tennis Racket', 'Water Bottle', 'Running Belt', 'Jump Rope'],
  Clothing: ['Rain Jacket', 'Wool Scarf', 'Sneakers', 'Beanie', 'Hoodie'],
  Beauty: ['Face Cream', 'Shampoo', 'Lip Balm', 'Hair Dryer', 'Sunscreen'],
  Office: ['Desk Lamp', 'Stapler', 'Monitor Stand', 'Fountain Pen', 'Desk Organizer'],
  'Pet Supplies': ['Dog Leash', 'Cat Tree', 'Pet Bed', 'Aquarium Filter', 'Chew Toy'],
  Bath: ['Bath Towel', 'Shower Head', 'Bath Mat', 'Soap Dish', 'Robe'],
  Lighting: ['Floor Lamp', 'LED Strip', 'Pendant Light', 'Night Light', 'Lantern'],
  Camping: ['Tent', 'Sleeping Bag', 'Camp Stove', 'Headlamp', 'Cooler'],
  Cycling: ['Bike Helmet', 'Bike Lock', 'Saddle Bag', 'Tyre Pump', 'Cycling Gloves'],
  Music: ['Ukulele', 'Guitar Strings', 'Metronome', 'Keyboard Stand', 'Harmonica'],
  Baby: ['Baby Monitor', 'Bottle Set', 'Play Mat', 'Stroller Fan', 'Teether'],
  Crafts: ['Sketchbook', 'Paint Set', 'Knitting Kit', 'Glue Gun', 'Clay Pack'],
  Travel: ['Carry-on Suitcase', 'Neck Pillow', 'Packing Cubes', 'Travel Adapter', 'Passport Wallet'],
  Automotive: ['Dash Cam', 'Car Vacuum', 'Phone Mount', 'Jump Starter', 'Seat Cover'],
  Grocery: ['Olive Oil', 'Coffee Beans', 'Green Tea', 'Dark Chocolate', 'Honey Jar'],
};
const BRANDS = ['Aurora', 'Northwind', 'Kestrel', 'Lumen', 'Verde', 'Solace', 'Bramble', 'Tidal', 'Orbit', 'Juniper', 'Copperleaf', 'Halcyon'];

const orderTotal: QuestionTemplate = {
  id: 'retail/order-total', difficulty: 'medium', perDatabase: 4,
  drafts: (view, rng) => sampleSome(rng, view.table('customer').rows, 10).map((c) => ({
    question: `How much has ${String(c['name'])} spent across all order lines, counting quantity times unit price?`,
    query: `SELECT SUM(T1.quantity * T1.unit_price) FROM order_item AS T1 JOIN sales_order AS T2 ON T1.order_id = T2.id JOIN customer AS T3 ON T2.customer_id = T3.id WHERE T3.name = ${sqlLiteral(c['name']!)}`,
    tables: ['order_item', 'sales_order', 'customer'],
  })),
};

const bestSellerInCategory: QuestionTemplate = {
  id: 'retail/best-seller-in-category', difficulty: 'hard', perDatabase: 4,
  drafts: (_view, rng) => sampleSome(rng, CATEGORIES, 6).map((cat) => {
    const from = `FROM order_item AS T1 JOIN product AS T2 ON T1.product_id = T2.id JOIN product_category AS T3 ON T2.category_id = T3.id WHERE T3.name = ${sqlLiteral(cat)} GROUP BY T2.id`;
    return {
      question: `Which ${cat} product has sold the most units?`,
      query: `SELECT T2.name ${from} ORDER BY SUM(T1.quantity) DESC LIMIT 1`,
      tables: ['order_item', 'product', 'product_category'],
      tie: { probe: `SELECT SUM(T1.quantity) ${from} ORDER BY SUM(T1.quantity) DESC LIMIT 2`, k: 1 },
    };
  }),
};

const customersNeverOrdered: QuestionTemplate = {
  id: 'retail/customers-only-cancelled', difficulty: 'extra', perDatabase: 2,
  drafts: () => [{
    question: 'Which customers have had orders cancelled but have never received a delivered order? Give their names.',
    query: "SELECT T2.name FROM sales_order AS T1 JOIN customer AS T2 ON T1.customer_id = T2.id WHERE T1.status = 'cancelled' EXCEPT SELECT T2.name FROM sales_order AS T1 JOIN customer AS T2 ON T1.customer_id = T2.id WHERE T1.status = 'delivered'",
    tables: ['sales_order', 'customer'],
  }],
};

/**
 * The retail domain: its tables, how their rows are generated, and its own question templates.
 *
 * @example
 * ```ts
 * const db = populate(retailDomain, BUNDLED_SEED);
 * db.rows.get('customer')?.length;
 * ```
 */
export const retailDomain: DomainSpec = {
  id: 'online_store',
  summary: 'An online shop: customers, product categories and products, orders and their order lines.',
  tables: [
    {
      name: 'customer', singular: 'customer', plural: 'customers', rowCount: 400,
      columns: [
        key(),
        nameColumn('name', 'name', (rng) => personName(rng)),
        category('city', 'city', CITIES.slice(14, 26).map((c) => c.city), { phrase: (v) => `from ${v}` }),
        date('signup_date', 'sign-up date', '2018-01-01', '2024-06-30'),
        category('loyalty_tier', 'loyalty tier', ['bronze', 'silver', 'gold'], { nullRate: 0.45, weights: [5, 3, 1], phrase: (v) => `in the ${v} loyalty tier` }),
      ],
    },
    {
      name: 'product_category', singular: 'product category', plural: 'product categories', rowCount: CATEGORIES.length,
      columns: [
        key(),
        nameColumn('name', 'name', (_rng, ctx) => CATEGORIES[ctx.index]!),
        category('department', 'store department', ['Home', 'Leisure', 'Tech', 'Personal', 'Outdoor']),
      ],
    },
    {
      name: 'product', singular: 'product', plural: 'products', rowCount: 220,
      columns: [
        key(),
        ref('category_id', 'product_category', 'product category'),
        nameColumn('name', 'name', (rng, ctx) => {
          const cat = String(ctx.lookup('product_category', ctx.row['category_id']!, 'name'));
          return `${rng.choice(BRANDS)} ${rng.choice(PRODUCT_NOUNS[cat] ?? ['Gadget'])}${rng.float() < 0.4 ? ` ${rng.choice(['Mini', 'Pro', 'Max', 'Plus', 'Lite'])}` : ''}`;
        }),
        categoryBy('brand', 'brand', (ctx) => String(ctx.row['name']).split(' ')[0]!),
        real('unit_price', 'unit price', 3, 400, 2, { currency: '$', summable: false, gen: (ctx) => 3 + ctx.rng.float() ** 2.2 * 397 }),
        integer('stock', 'stock level', 0, 500, { gen: (ctx) => (ctx.rng.float() < 0.08 ? 0 : ctx.rng.intBetween(1, 500)) }),
      ],
    },
    {
      name: 'sales_order', singular: 'order', plural: 'orders', rowCount: 1200,
      columns: [
        key(),
        ref('customer_id', 'customer', 'customer'),
        date('order_date', 'order date', '2022-01-01', '2024-12-31'),
        category('status', 'status', ['delivered', 'shipped', 'processing', 'cancelled', 'returned'], { weights: [20, 3, 2, 2, 1] }),
        category('shipping_method', 'shipping method', ['standard', 'express', 'pickup'], { weights: [6, 3, 1], phrase: (v) => `with ${v} shipping` }),
        date('delivered_on', 'delivery date', '2022-01-01', '2025-01-31', {
          nullRate: 0.1,
          gen: (ctx) => addDays(String(ctx.row['order_date']), weightedChoice(ctx.rng, [1, 2, 3, 5, 8], [1, 3, 3, 2, 1])),
        }),
      ],
    },
    {
      name: 'order_item', singular: 'order line', plural: 'order lines', rowCount: 2000,
      uniqueTogether: ['order_id', 'product_id'],
      columns: [
        key(),
        ref('order_id', 'sales_order', 'order'),
        ref('product_id', 'product', 'product'),
        integer('quantity', 'quantity', 1, 6, { gen: (ctx) => weightedChoice(ctx.rng, [1, 2, 3, 4, 6], [10, 5, 2, 1, 1]) }),
        real('unit_price', 'unit price paid', 2, 400, 2, {
          currency: '$', summable: false,
          gen: (ctx) => Number(ctx.lookup('product', ctx.row['product_id']!, 'unit_price')) * (ctx.rng.float() < 0.25 ? 0.85 : 1),
        }),
      ],
    },
  ],
  templates: [orderTotal, bestSellerInCategory, customersNeverOrdered],
};
