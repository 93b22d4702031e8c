-- The business a support agent serves: customers, services, slots and bookings, tickets,
-- the knowledge base and the email outbox. Only extensions that hosted Postgres (Supabase) offers.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE customers (
  id            text PRIMARY KEY,
  name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  email         text,
  phone         text,
  address_line1 text,
  address_unit  text,
  city          text,
  postal_code   text,
  preferences   jsonb NOT NULL DEFAULT '{}'::jsonb,
  notes         text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX customers_email_key ON customers (lower(email)) WHERE email IS NOT NULL;
CREATE INDEX customers_name_trgm ON customers USING gin (lower(name) gin_trgm_ops);

-- Who a Slack user is. Made by a manager (or the demo seed), never claimed by the user.
CREATE TABLE slack_identities (
  slack_user_id text PRIMARY KEY,
  customer_id   text NOT NULL REFERENCES customers (id),
  linked_by     text NOT NULL,
  linked_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX slack_identities_customer ON slack_identities (customer_id);

CREATE TABLE services (
  id               text PRIMARY KEY,
  name             text NOT NULL,
  description      text NOT NULL,
  category         text NOT NULL CHECK (category IN ('cleaning', 'repair', 'install')),
  duration_minutes integer NOT NULL CHECK (duration_minutes > 0),
  price_cents      integer NOT NULL CHECK (price_cents >= 0),
  active           boolean NOT NULL DEFAULT true
);

-- One row per crew-hour that can be booked. A service of N hours takes N consecutive rows.
CREATE TABLE slots (
  id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  crew      text NOT NULL,
  starts_at timestamptz NOT NULL,
  ends_at   timestamptz NOT NULL,
  CHECK (ends_at > starts_at),
  UNIQUE (crew, starts_at)
);
CREATE INDEX slots_starts_at ON slots (starts_at);

CREATE SEQUENCE booking_seq START 1001;
CREATE TABLE bookings (
  id          text PRIMARY KEY DEFAULT 'BKG-' || nextval('booking_seq'),
  customer_id text NOT NULL REFERENCES customers (id),
  service_id  text NOT NULL REFERENCES services (id),
  crew        text NOT NULL,
  starts_at   timestamptz NOT NULL,
  ends_at     timestamptz NOT NULL,
  status      text NOT NULL DEFAULT 'confirmed' CHECK (status IN ('confirmed', 'cancelled')),
  notes       text,
  approval_id uuid,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bookings_customer ON bookings (customer_id);

-- The double-booking guard lives here, not in application code: a slot row can belong to one
-- confirmed booking only. Cancelling a booking deletes its rows and frees the slots.
CREATE TABLE booking_slots (
  slot_id    bigint PRIMARY KEY REFERENCES slots (id),
  booking_id text NOT NULL REFERENCES bookings (id) ON DELETE CASCADE
);
CREATE INDEX booking_slots_booking ON booking_slots (booking_id);

CREATE SEQUENCE ticket_seq START 1001;
CREATE TABLE tickets (
  id          text PRIMARY KEY DEFAULT 'TKT-' || nextval('ticket_seq'),
  customer_id text REFERENCES customers (id),
  subject     text NOT NULL,
  description text NOT NULL,
  priority    text NOT NULL CHECK (priority IN ('low', 'normal', 'high', 'urgent')),
  category    text NOT NULL,
  status      text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'pending', 'resolved', 'closed')),
  approval_id uuid,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tickets_customer ON tickets (customer_id);

CREATE TABLE kb_articles (
  id         text PRIMARY KEY,
  topic      text NOT NULL,
  title      text NOT NULL,
  body       text NOT NULL,
  search     tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', title), 'A') ||
    setweight(to_tsvector('english', replace(topic, '-', ' ')), 'B') ||
    setweight(to_tsvector('english', body), 'C')
  ) STORED,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX kb_articles_search ON kb_articles USING gin (search);
CREATE INDEX kb_articles_title_trgm ON kb_articles USING gin (lower(title) gin_trgm_ops);

CREATE SEQUENCE email_seq START 1001;
CREATE TABLE email_outbox (
  id              text PRIMARY KEY DEFAULT 'EML-' || nextval('email_seq'),
  approval_id     uuid,
  customer_id     text REFERENCES customers (id),
  to_address      text NOT NULL,
  subject         text NOT NULL,
  body            text NOT NULL,
  status          text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'sent', 'failed')),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error      text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  sent_at         timestamptz
);
CREATE INDEX email_outbox_due ON email_outbox (status, next_attempt_at);

-- Small key/value facts about this database (demo seed version and the like).
CREATE TABLE app_meta (
  key   text PRIMARY KEY,
  value jsonb NOT NULL
);
