/** Columns of `customers` that make up a CustomerRow. */
export const CUSTOMER_COLUMNS =
  'id, name, email, phone, address_line1, address_unit, city, postal_code, preferences, notes';

/** A `customers` row as stored: the address in columns (the tools' CustomerRecord nests it). */
export interface CustomerRow {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  address_line1: string | null;
  address_unit: string | null;
  city: string | null;
  postal_code: string | null;
  preferences: Record<string, unknown> | null;
  notes: string | null;
}
