-- Demo data for a fresh database (`supabase db reset`, `supabase start`,
-- @engram/local-stack): one confirmed account and two decks it owns.
--
--   sign in as demo@engram.local / engram-demo
--   "World capitals"        public,  64 basic_reversed notes -> 128 cards
--   "Common Spanish words"  private, 60 basic + 9 cloze notes -> 77 cards
--
-- Runs as the superuser, so auth.uid() is null: owner_id and created_by are
-- set explicitly. Triggers do the rest: the profile (on auth.users), the owner
-- membership (on decks), the cards (on notes) and a new-card schedule row
-- per card for the demo user (on cards). Every insert skips existing rows, so
-- running it twice changes nothing.

-- The account, as GoTrue stores a confirmed email sign-up (token columns are
-- empty strings, not null: GoTrue cannot scan a null into them). The password
-- is stored as its bcrypt hash (cost 10), written out: crypt() would load
-- pgcrypto into the embedded database at every first start, a tenth of its memory.
insert into auth.users (
  instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  confirmation_token, recovery_token, email_change_token_new, email_change,
  email_change_token_current, phone_change, phone_change_token, reauthentication_token,
  raw_app_meta_data, raw_user_meta_data, is_super_admin, created_at, updated_at
) values (
  '00000000-0000-0000-0000-000000000000',
  'de300000-0000-4000-8000-000000000001',
  'authenticated', 'authenticated', 'demo@engram.local',
  '$2a$10$An8/jfNHVyxPr03iU4AQxO/LAjFKb3x0vERjGbws.0DluuPXV8I6e',
  now(),
  '', '', '', '', '', '', '', '',
  '{"provider":"email","providers":["email"]}',
  '{"display_name":"Demo","timezone":"UTC"}',
  false, now(), now()
) on conflict (id) do nothing;

insert into auth.identities (id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
values (
  'de300000-0000-4000-8000-000000000002',
  'de300000-0000-4000-8000-000000000001',
  'de300000-0000-4000-8000-000000000001',
  jsonb_build_object(
    'sub', 'de300000-0000-4000-8000-000000000001',
    'email', 'demo@engram.local',
    'email_verified', true
  ),
  'email', now(), now(), now()
) on conflict (provider_id, provider) do nothing;

insert into public.decks (id, owner_id, name, description, is_public) values
  ('de300000-0000-4000-8000-0000000000c1', 'de300000-0000-4000-8000-000000000001',
   'World capitals',
   'Countries and their capital cities on every continent, asked both ways: country → capital and capital → country.',
   true),
  ('de300000-0000-4000-8000-0000000000e5', 'de300000-0000-4000-8000-000000000001',
   'Common Spanish words',
   'Everyday Spanish nouns, verbs, adjectives and adverbs with their English meanings, and short sentences to complete.',
   false)
on conflict (id) do nothing;

-- World capitals: country on the front, capital on the back, tagged by continent.
-- created_at follows the list (a VALUES scan numbers its rows in order), so new
-- cards are introduced in this order.
insert into public.notes (deck_id, kind, fields, tags, created_by, created_at)
select 'de300000-0000-4000-8000-0000000000c1', 'basic_reversed',
       jsonb_build_object('front', v.country, 'back', v.capital),
       array[v.continent],
       'de300000-0000-4000-8000-000000000001',
       now() - make_interval(secs => 1000 - row_number() over ())
from (values
  ('France', 'Paris', 'europe'),
  ('Germany', 'Berlin', 'europe'),
  ('Italy', 'Rome', 'europe'),
  ('Spain', 'Madrid', 'europe'),
  ('Portugal', 'Lisbon', 'europe'),
  ('United Kingdom', 'London', 'europe'),
  ('Poland', 'Warsaw', 'europe'),
  ('Greece', 'Athens', 'europe'),
  ('Sweden', 'Stockholm', 'europe'),
  ('Norway', 'Oslo', 'europe'),
  ('Austria', 'Vienna', 'europe'),
  ('Hungary', 'Budapest', 'europe'),
  ('Ukraine', 'Kyiv', 'europe'),
  ('Iceland', 'Reykjavík', 'europe'),
  ('Japan', 'Tokyo', 'asia'),
  ('China', 'Beijing', 'asia'),
  ('South Korea', 'Seoul', 'asia'),
  ('India', 'New Delhi', 'asia'),
  ('Pakistan', 'Islamabad', 'asia'),
  ('Bangladesh', 'Dhaka', 'asia'),
  ('Thailand', 'Bangkok', 'asia'),
  ('Vietnam', 'Hanoi', 'asia'),
  ('Philippines', 'Manila', 'asia'),
  ('Mongolia', 'Ulaanbaatar', 'asia'),
  ('Nepal', 'Kathmandu', 'asia'),
  ('Saudi Arabia', 'Riyadh', 'asia'),
  ('Iran', 'Tehran', 'asia'),
  ('Türkiye', 'Ankara', 'asia'),
  ('Kazakhstan', 'Astana', 'asia'),
  ('Egypt', 'Cairo', 'africa'),
  ('Nigeria', 'Abuja', 'africa'),
  ('Kenya', 'Nairobi', 'africa'),
  ('Ethiopia', 'Addis Ababa', 'africa'),
  ('Morocco', 'Rabat', 'africa'),
  ('Ghana', 'Accra', 'africa'),
  ('Senegal', 'Dakar', 'africa'),
  ('Algeria', 'Algiers', 'africa'),
  ('Tanzania', 'Dodoma', 'africa'),
  ('Uganda', 'Kampala', 'africa'),
  ('Angola', 'Luanda', 'africa'),
  ('Madagascar', 'Antananarivo', 'africa'),
  ('Zimbabwe', 'Harare', 'africa'),
  ('United States', 'Washington, D.C.', 'north-america'),
  ('Canada', 'Ottawa', 'north-america'),
  ('Mexico', 'Mexico City', 'north-america'),
  ('Cuba', 'Havana', 'north-america'),
  ('Jamaica', 'Kingston', 'north-america'),
  ('Guatemala', 'Guatemala City', 'north-america'),
  ('Costa Rica', 'San José', 'north-america'),
  ('Panama', 'Panama City', 'north-america'),
  ('Brazil', 'Brasília', 'south-america'),
  ('Argentina', 'Buenos Aires', 'south-america'),
  ('Chile', 'Santiago', 'south-america'),
  ('Peru', 'Lima', 'south-america'),
  ('Colombia', 'Bogotá', 'south-america'),
  ('Venezuela', 'Caracas', 'south-america'),
  ('Ecuador', 'Quito', 'south-america'),
  ('Uruguay', 'Montevideo', 'south-america'),
  ('Paraguay', 'Asunción', 'south-america'),
  ('Australia', 'Canberra', 'oceania'),
  ('New Zealand', 'Wellington', 'oceania'),
  ('Fiji', 'Suva', 'oceania'),
  ('Papua New Guinea', 'Port Moresby', 'oceania'),
  ('Samoa', 'Apia', 'oceania')
) as v(country, capital, continent)
where not exists (select 1 from public.notes where deck_id = 'de300000-0000-4000-8000-0000000000c1');

-- Common Spanish words: Spanish on the front, English on the back, tagged by part of speech.
insert into public.notes (deck_id, kind, fields, tags, created_by, created_at)
select 'de300000-0000-4000-8000-0000000000e5', 'basic',
       jsonb_build_object('front', v.spanish, 'back', v.english),
       array[v.part],
       'de300000-0000-4000-8000-000000000001',
       now() - make_interval(secs => 1000 - row_number() over ())
from (values
  ('la casa', 'the house', 'noun'),
  ('el perro', 'the dog', 'noun'),
  ('el gato', 'the cat', 'noun'),
  ('el agua', 'the water', 'noun'),
  ('el pan', 'the bread', 'noun'),
  ('la comida', 'the food, the meal', 'noun'),
  ('el libro', 'the book', 'noun'),
  ('la mesa', 'the table', 'noun'),
  ('la puerta', 'the door', 'noun'),
  ('la ventana', 'the window', 'noun'),
  ('la ciudad', 'the city', 'noun'),
  ('la calle', 'the street', 'noun'),
  ('la escuela', 'the school', 'noun'),
  ('el trabajo', 'the work, the job', 'noun'),
  ('el dinero', 'the money', 'noun'),
  ('la familia', 'the family', 'noun'),
  ('el amigo / la amiga', 'the friend', 'noun'),
  ('el hombre', 'the man', 'noun'),
  ('la mujer', 'the woman, the wife', 'noun'),
  ('el niño / la niña', 'the child (boy / girl)', 'noun'),
  ('el día', 'the day', 'noun'),
  ('la noche', 'the night', 'noun'),
  ('el año', 'the year', 'noun'),
  ('el tiempo', 'the time, the weather', 'noun'),
  ('la palabra', 'the word', 'noun'),
  ('ser', 'to be (identity, lasting traits)', 'verb'),
  ('estar', 'to be (states, location)', 'verb'),
  ('tener', 'to have', 'verb'),
  ('hacer', 'to do, to make', 'verb'),
  ('ir', 'to go', 'verb'),
  ('venir', 'to come', 'verb'),
  ('decir', 'to say, to tell', 'verb'),
  ('poder', 'to be able to, can', 'verb'),
  ('querer', 'to want, to love', 'verb'),
  ('saber', 'to know (facts, how to)', 'verb'),
  ('conocer', 'to know (people, places), to meet', 'verb'),
  ('hablar', 'to speak, to talk', 'verb'),
  ('comer', 'to eat', 'verb'),
  ('beber', 'to drink', 'verb'),
  ('vivir', 'to live', 'verb'),
  ('trabajar', 'to work', 'verb'),
  ('escribir', 'to write', 'verb'),
  ('leer', 'to read', 'verb'),
  ('dormir', 'to sleep', 'verb'),
  ('aprender', 'to learn', 'verb'),
  ('grande', 'big, large', 'adjective'),
  ('pequeño', 'small, little', 'adjective'),
  ('bueno', 'good', 'adjective'),
  ('malo', 'bad', 'adjective'),
  ('nuevo', 'new', 'adjective'),
  ('viejo', 'old', 'adjective'),
  ('feliz', 'happy', 'adjective'),
  ('triste', 'sad', 'adjective'),
  ('fácil', 'easy', 'adjective'),
  ('difícil', 'difficult, hard', 'adjective'),
  ('siempre', 'always', 'adverb'),
  ('nunca', 'never', 'adverb'),
  ('hoy', 'today', 'adverb'),
  ('ayer', 'yesterday', 'adverb'),
  ('aquí', 'here', 'adverb')
) as v(spanish, english, part)
where not exists (select 1 from public.notes where deck_id = 'de300000-0000-4000-8000-0000000000e5' and kind = 'basic');

-- ... and sentences to complete: one card per {{cN::…}} number, extra = the translation.
insert into public.notes (deck_id, kind, fields, tags, created_by, created_at)
select 'de300000-0000-4000-8000-0000000000e5', 'cloze',
       jsonb_build_object('text', v.sentence, 'extra', v.translation),
       array['sentence'],
       'de300000-0000-4000-8000-000000000001',
       now() - make_interval(secs => 100 - row_number() over ())
from (values
  ('{{c1::Hola}}, ¿cómo {{c2::estás}}?', 'Hello, how are you?'),
  ('Me {{c1::llamo}} Ana.', 'My name is Ana.'),
  ('¿{{c1::Dónde}} está la {{c2::biblioteca}}?', 'Where is the library?'),
  ('Quiero un {{c1::vaso}} de {{c2::agua}}, por favor.', 'I would like a glass of water, please.'),
  ('Hoy {{c1::hace}} mucho {{c2::calor}}.', 'It is very hot today.'),
  ('{{c1::Tengo}} veinte {{c2::años}}.', 'I am twenty years old.'),
  ('Vivimos en una casa {{c1::pequeña}} cerca del {{c2::mar}}.', 'We live in a small house near the sea.'),
  ('¿{{c1::Cuánto}} {{c2::cuesta}} este libro?', 'How much does this book cost?'),
  ('Mañana {{c1::voy}} a la playa con mis {{c2::amigos}}.', 'Tomorrow I am going to the beach with my friends.')
) as v(sentence, translation)
where not exists (select 1 from public.notes where deck_id = 'de300000-0000-4000-8000-0000000000e5' and kind = 'cloze');
