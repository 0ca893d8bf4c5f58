/** Music streaming: artists, albums, tracks, listeners, streams and playlists. */
import { category, date, integer, key, nameColumn, ref } from '../columns.js';
import { inventedTitle, personName, weightedChoice } from '../random-values.js';
import type { DomainSpec } from '../schema.js';
import { FIRST_NAMES, TITLE_NOUNS } from '../words.js';
import { sampleSome, sqlLiteral } from '../questions/phrasing.js';
import type { QuestionTemplate } from '../questions/template.js';

const listenerMinutes: QuestionTemplate = {
  id: 'music/listener-minutes', difficulty: 'medium', perDatabase: 4,
  drafts: (view, rng) => sampleSome(rng, view.table('listener').rows, 12).map((l) => ({
    question: `How many minutes of music has the listener ${String(l['username'])} streamed in total? Round to the nearest minute.`,
    query: `SELECT ROUND(SUM(T1.seconds_played) / 60.0) FROM stream AS T1 JOIN listener AS T2 ON T1.listener_id = T2.id WHERE T2.username = ${sqlLiteral(l['username']!)}`,
    tables: ['stream', 'listener'],
  })),
};

const mostStreamedArtistInCountry: QuestionTemplate = {
  id: 'music/top-artist-in-country', difficulty: 'extra', perDatabase: 4,
  drafts: (_view, rng) => sampleSome(rng, ['Portugal', 'Brazil', 'Germany', 'Japan', 'United States', 'Nigeria', 'Mexico', 'India'], 6).map((c) => {
    const from = `FROM stream AS T1 JOIN listener AS T2 ON T1.listener_id = T2.id JOIN track AS T3 ON T1.track_id = T3.id JOIN album AS T4 ON T3.album_id = T4.id JOIN artist AS T5 ON T4.artist_id = T5.id WHERE T2.country = ${sqlLiteral(c)} GROUP BY T5.id`;
    return {
      question: `Which artist is streamed the most by listeners in ${c}?`,
      query: `SELECT T5.name ${from} ORDER BY COUNT(*) DESC LIMIT 1`,
      tables: ['stream', 'listener', 'track', 'album', 'artist'],
      tie: { probe: `SELECT COUNT(*) ${from} ORDER BY COUNT(*) DESC LIMIT 2`, k: 1 },
    };
  }),
};

const skippedTracks: QuestionTemplate = {
  id: 'music/skips-on-album', difficulty: 'hard', perDatabase: 4,
  drafts: (view, rng) => sampleSome(rng, view.table('album').rows, 12).map((a) => ({
    question: `How many streams of tracks from the album "${String(a['title'])}" were skipped within the first 30 seconds?`,
    query: `SELECT COUNT(*) FROM stream AS T1 JOIN track AS T2 ON T1.track_id = T2.id JOIN album AS T3 ON T2.album_id = T3.id WHERE T3.title = ${sqlLiteral(a['title']!)} AND T1.seconds_played < 30`,
    tables: ['stream', 'track', 'album'],
  })),
};

/**
 * The music streaming domain: its tables, how their rows are generated, and its own question templates.
 *
 * @example
 * ```ts
 * const db = populate(musicStreamingDomain, BUNDLED_SEED);
 * db.rows.get('artist')?.length;
 * ```
 */
export const musicStreamingDomain: DomainSpec = {
  id: 'music_streaming',
  summary: 'A music streaming service: artists, albums and tracks, listeners with subscriptions, and their streams.',
  tables: [
    {
      name: 'artist', singular: 'artist', plural: 'artists', rowCount: 60,
      columns: [
        key(),
        nameColumn('name', 'name', (rng) => (rng.float() < 0.6 ? personName(rng) : `${rng.choice(['The', 'Los', 'Les'])} ${rng.choice(TITLE_NOUNS)}s`)),
        category('country', 'country', ['United States', 'United Kingdom', 'Brazil', 'Nigeria', 'South Korea', 'Sweden', 'Mexico', 'France']),
        category('genre', 'genre', ['pop', 'rock', 'hip hop', 'electronic', 'jazz', 'reggaeton', 'indie', 'classical'], { weights: [5, 4, 4, 3, 1, 2, 3, 1] }),
        integer('followers', 'follower count', 500, 40000000, { gen: (ctx) => Math.round(Math.exp(6.2 + ctx.rng.float() * 11)) }),
      ],
    },
    {
      name: 'album', singular: 'album', plural: 'albums', rowCount: 170,
      columns: [
        key(),
        nameColumn('title', 'title', (rng) => inventedTitle(rng), { quoted: true }),
        ref('artist_id', 'artist', 'artist'),
        date('release_date', 'release date', '1998-01-01', '2024-11-29'),
        category('record_label', 'record label', ['Northern Lights Records', 'Sidewalk Sound', 'Blue Orchard', 'Paper Moon Music', 'Independent'], { weights: [3, 3, 2, 2, 4] }),
        category('album_type', 'album type', ['studio album', 'EP', 'live album', 'compilation'], { weights: [8, 4, 1, 1] }),
      ],
    },
    {
      name: 'track', singular: 'track', plural: 'tracks', rowCount: 900,
      columns: [
        key(),
        nameColumn('title', 'title', (rng) => `${inventedTitle(rng)}${rng.float() < 0.2 ? ` (${rng.choice(['Remix', 'Acoustic', 'Live', 'Radio Edit'])})` : ''}`, { quoted: true }),
        ref('album_id', 'album', 'album'),
        integer('duration_seconds', 'length in seconds', 95, 540, { gen: (ctx) => Math.round(215 + 45 * ctx.rng.normal()) }),
        category('explicit', 'explicit flag', ['yes', 'no'], { weights: [1, 4], phrase: (v) => (v === 'yes' ? 'marked explicit' : 'not marked explicit') }),
        integer('bpm', 'tempo in beats per minute', 60, 180, { nullRate: 0.15, summable: false }),
      ],
    },
    {
      name: 'listener', singular: 'listener', plural: 'listeners', rowCount: 450,
      columns: [
        key(),
        nameColumn('username', 'username', (rng) => `${rng.choice(FIRST_NAMES).toLowerCase()}${rng.intBetween(1, 999)}`),
        category('country', 'country', ['Portugal', 'Brazil', 'Germany', 'Japan', 'United States', 'Nigeria', 'Mexico', 'India'], { phrase: (v) => `from ${v}` }),
        category('plan', 'subscription plan', ['free', 'individual', 'student', 'family'], { weights: [6, 4, 2, 2], phrase: (v) => `on the ${v} plan` }),
        date('joined_on', 'sign-up date', '2016-01-01', '2024-10-31'),
        integer('birth_year', 'birth year', 1950, 2009, { nullRate: 0.2, summable: false }),
      ],
    },
    {
      name: 'stream', singular: 'stream', plural: 'streams', rowCount: 2000,
      columns: [
        key(),
        ref('listener_id', 'listener', 'listener'),
        ref('track_id', 'track', 'track'),
        date('streamed_on', 'streaming date', '2024-01-01', '2024-12-31'),
        integer('seconds_played', 'seconds played', 1, 540, {
          gen: (ctx) => {
            const full = Number(ctx.lookup('track', ctx.row['track_id']!, 'duration_seconds'));
            return weightedChoice(ctx.rng, [full, Math.max(1, Math.round(full * ctx.rng.float())), ctx.rng.intBetween(1, 29)], [6, 2, 2]);
          },
        }),
        category('device', 'device', ['phone', 'desktop', 'smart speaker', 'car', 'tablet'], { weights: [10, 4, 2, 2, 1], phrase: (v) => `played on a ${v}` }),
      ],
    },
    {
      name: 'playlist', singular: 'playlist', plural: 'playlists', rowCount: 120,
      columns: [
        key(),
        nameColumn('name', 'name', (rng) => `${rng.choice(['Morning', 'Late Night', 'Workout', 'Road Trip', 'Focus', 'Rainy Day', 'Weekend', 'Summer'])} ${rng.choice(['Mix', 'Vibes', 'Favourites', 'Essentials', 'Jams'])} ${rng.intBetween(1, 99)}`),
        ref('owner_id', 'listener', 'owner'),
        date('created_on', 'creation date', '2018-01-01', '2024-12-01'),
        integer('follower_count', 'follower count', 0, 25000, { gen: (ctx) => Math.round(Math.exp(ctx.rng.float() * 10)) - 1 }),
      ],
    },
  ],
  templates: [listenerMinutes, mostStreamedArtistInCountry, skippedTracks],
};
