/**
 * Hand-written word lists the generator draws realistic values from. Nothing here is
 * downloaded or copied from a dataset; the lists are short on purpose so the databases stay
 * small, and mixed (several languages and regions) so that names look like a real roster.
 */

/** Given names. */
export const FIRST_NAMES = [
  'Ada', 'Adrian', 'Aisha', 'Alba', 'Alex', 'Amara', 'Amir', 'Ana', 'Anders', 'Anika',
  'Arjun', 'Astrid', 'Bea', 'Ben', 'Bianca', 'Boris', 'Camila', 'Carlos', 'Chen', 'Chloe',
  'Clara', 'Daniel', 'Dario', 'Diego', 'Elena', 'Elif', 'Emeka', 'Emma', 'Erik', 'Esther',
  'Farah', 'Felix', 'Freya', 'Gabriel', 'Grace', 'Hana', 'Hugo', 'Ines', 'Ivan', 'Jonas',
  'Julia', 'Kai', 'Kenji', 'Lara', 'Leila', 'Leo', 'Lina', 'Luca', 'Maya', 'Marco',
  'Mateo', 'Mei', 'Mila', 'Nadia', 'Niko', 'Nora', 'Omar', 'Oscar', 'Priya', 'Rafael',
  'Rosa', 'Ruth', 'Samir', 'Sara', 'Sofia', 'Tariq', 'Theo', 'Tomas', 'Uma', 'Vera',
  'Victor', 'Wen', 'Yara', 'Yusuf', 'Zara', 'Zoe', 'Ingrid', 'Pablo', 'Naomi', 'Kofi',
] as const;

/** Family names. */
export const LAST_NAMES = [
  'Abbott', 'Adeyemi', 'Alvarez', 'Andersen', 'Bauer', 'Becker', 'Bianchi', 'Brooks', 'Castillo', 'Chen',
  'Costa', 'Dubois', 'Eriksson', 'Fischer', 'Fontaine', 'Garcia', 'Gomez', 'Gupta', 'Haddad', 'Hansen',
  'Hartley', 'Ibrahim', 'Ito', 'Jensen', 'Kaur', 'Keller', 'Kim', 'Kowalski', 'Larsen', 'Lee',
  'Lopez', 'Mahler', 'Martin', 'Mendes', 'Moreau', 'Murphy', 'Nakamura', 'Novak', 'Okafor', 'Olsen',
  'Park', 'Patel', 'Petrov', 'Quinn', 'Reyes', 'Rossi', 'Santos', 'Schmidt', 'Silva', 'Singh',
  'Sato', 'Takahashi', 'Tanaka', 'Torres', 'Vargas', 'Vogel', 'Walsh', 'Weber', 'Wong', 'Young',
  'Zhang', 'Nowak', 'Horvat', 'Mensah', 'Lindqvist', 'Moreno', 'Ferreira', 'Kuznetsov', 'Byrne', 'Dalton',
] as const;

/** Cities with their country, for venues, airports, branches and addresses. */
export const CITIES: readonly { city: string; country: string }[] = [
  { city: 'Lisbon', country: 'Portugal' }, { city: 'Porto', country: 'Portugal' },
  { city: 'Madrid', country: 'Spain' }, { city: 'Barcelona', country: 'Spain' },
  { city: 'Paris', country: 'France' }, { city: 'Lyon', country: 'France' },
  { city: 'Berlin', country: 'Germany' }, { city: 'Munich', country: 'Germany' },
  { city: 'Hamburg', country: 'Germany' }, { city: 'Vienna', country: 'Austria' },
  { city: 'Rome', country: 'Italy' }, { city: 'Milan', country: 'Italy' },
  { city: 'Amsterdam', country: 'Netherlands' }, { city: 'Oslo', country: 'Norway' },
  { city: 'Stockholm', country: 'Sweden' }, { city: 'Copenhagen', country: 'Denmark' },
  { city: 'Dublin', country: 'Ireland' }, { city: 'London', country: 'United Kingdom' },
  { city: 'Manchester', country: 'United Kingdom' }, { city: 'Toronto', country: 'Canada' },
  { city: 'Montreal', country: 'Canada' }, { city: 'Chicago', country: 'United States' },
  { city: 'Denver', country: 'United States' }, { city: 'Seattle', country: 'United States' },
  { city: 'Austin', country: 'United States' }, { city: 'Boston', country: 'United States' },
  { city: 'Mexico City', country: 'Mexico' }, { city: 'Sao Paulo', country: 'Brazil' },
  { city: 'Buenos Aires', country: 'Argentina' }, { city: 'Tokyo', country: 'Japan' },
  { city: 'Osaka', country: 'Japan' }, { city: 'Seoul', country: 'South Korea' },
  { city: 'Singapore', country: 'Singapore' }, { city: 'Sydney', country: 'Australia' },
  { city: 'Melbourne', country: 'Australia' }, { city: 'Cape Town', country: 'South Africa' },
  { city: 'Nairobi', country: 'Kenya' }, { city: 'Lagos', country: 'Nigeria' },
  { city: 'Istanbul', country: 'Turkey' }, { city: 'Mumbai', country: 'India' },
];

/** Adjectives for invented titles (films, books, albums, artworks, products). */
export const TITLE_ADJECTIVES = [
  'Silent', 'Golden', 'Hidden', 'Broken', 'Crimson', 'Distant', 'Electric', 'Endless', 'Fading', 'Frozen',
  'Gentle', 'Hollow', 'Iron', 'Last', 'Lost', 'Midnight', 'Northern', 'Paper', 'Quiet', 'Restless',
  'Scarlet', 'Secret', 'Silver', 'Summer', 'Wandering', 'Wild', 'Winter', 'Velvet', 'Burning', 'Blue',
] as const;

/** Nouns for invented titles. */
export const TITLE_NOUNS = [
  'Harbor', 'River', 'Garden', 'Mirror', 'Road', 'Tide', 'Orchard', 'Lantern', 'Horizon', 'Echo',
  'Forest', 'Island', 'Bridge', 'Letter', 'Season', 'Shadow', 'Signal', 'Station', 'Storm', 'Valley',
  'Window', 'Compass', 'Meadow', 'Kingdom', 'Canyon', 'Voyage', 'Archive', 'Engine', 'Feather', 'Tower',
] as const;

/** Street names for addresses. */
export const STREETS = [
  'Oak Street', 'Maple Avenue', 'Harbor Road', 'Mill Lane', 'Station Road', 'Park Avenue', 'King Street',
  'Church Lane', 'River Walk', 'Elm Street', 'Hill Road', 'Market Square', 'Garden Row', 'Lake Drive',
] as const;

/** Month names, for dates written the way people write them. */
export const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
] as const;

/** The country of a city in {@link CITIES}. */
export function countryOf(city: string): string {
  const found = CITIES.find((c) => c.city === city);
  if (!found) throw new RangeError(`unknown city ${city}`);
  return found.country;
}

/** The city names of {@link CITIES}. */
export const CITY_NAMES: readonly string[] = CITIES.map((c) => c.city);
