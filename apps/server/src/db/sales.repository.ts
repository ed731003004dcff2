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

/** Requests to the sales team, kept so that none is lost when mail is down. */
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
}
