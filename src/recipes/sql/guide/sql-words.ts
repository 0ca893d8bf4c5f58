/** SQLite's keywords, its core, aggregate, date, window, math and JSON functions, collations and common type names (lower case): words of a query besides the schema's names. */
export const SQL_WORDS: readonly string[] = (
  'abort action add after all alter always analyze and as asc attach autoincrement before begin between by cascade case cast check ' +
  'collate column commit conflict constraint create cross current current_date current_time current_timestamp database default ' +
  'deferrable deferred delete desc detach distinct do drop each else end escape except exclude exclusive exists explain fail filter ' +
  'first following for foreign from full generated glob group groups having if ignore immediate in index indexed initially inner insert ' +
  'instead intersect into is isnull join key last left like limit match materialized natural no not nothing notnull null nulls of ' +
  'offset on or order others outer over partition plan pragma preceding primary query raise range recursive references regexp reindex ' +
  'release rename replace restrict returning right rollback row rows savepoint select set table temp temporary then ties to transaction ' +
  'trigger unbounded union unique update using vacuum values view virtual when where window with without true false rowid ' +
  'abs avg changes char coalesce concat concat_ws count date datetime format group_concat hex ifnull iif instr julianday length likelihood ' +
  'lower ltrim max min nullif printf quote random round rtrim sign strftime string_agg substr substring sum time total trim typeof ' +
  'unicode unixepoch upper integer int real text numeric blob float varchar double boolean ' +
  'nocase binary likely unlikely soundex zeroblob randomblob last_insert_rowid total_changes sqlite_version ' +
  'row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value nth_value ' +
  'acos acosh asin asinh atan atan2 atanh ceil ceiling cos cosh degrees exp floor ln log log10 log2 mod pi pow power radians sin sinh sqrt tan tanh trunc ' +
  'json json_array json_array_length json_extract json_group_array json_group_object json_object json_type json_valid json_each json_tree'
).split(' ');
