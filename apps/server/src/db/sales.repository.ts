import type pg from 'pg';

type Queryable = Pick<pg.Pool, 'query'>;

/** One request of the enterprise contact form (/register/enterprise). */
export interface EnterpriseContactRecord {
  id: string;
  name: string;
  email: string;
  company: string;
  phone: string | null;
  teamSize: number | null;
  message: string | null;
  locale: string | null;
  ip: string | null;
}

/** One message of the general contact form (/contact). */
export interface ContactMessageRecord {
  id: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  locale: string | null;
  ip: string | null;
}

/** Messages of the contact forms (sales, support), kept so that none is lost when mail is down. */
export class PgSalesRepository {
  constructor(private readonly db: Queryable) {}

  async createEnterpriseContact(contact: EnterpriseContactRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO enterprise_contacts (id, name, email, company, phone, team_size, message, locale, ip)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        contact.id,
        contact.name,
        contact.email,
        contact.company,
        contact.phone,
        contact.teamSize,
        contact.message,
        contact.locale,
        contact.ip,
      ],
    );
  }

  async createContactMessage(message: ContactMessageRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO contact_messages (id, name, email, subject, message, locale, ip)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [message.id, message.name, message.email, message.subject, message.message, message.locale, message.ip],
    );
  }
}
