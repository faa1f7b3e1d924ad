// The demo company's work orders: one in each of the usual states (draft, planned, in progress, completed and
// signed, cancelled), with lines (minutes on the labour), checklists and photos. The photos are small real JPEGs
// drawn with sharp when the demo is made (nothing binary in the repository). Each work order at the maintenance
// appointment of its customer, where there is one.
import { and, asc, eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { nextDocumentNumber } from '../db/document-numbers.ts';
import {
  appointments,
  type ChecklistPoint,
  type WorkOrderLine,
  workOrderPhotos,
  workOrders,
} from '../db/schema/index.ts';
import type { Tx } from '../db/tenant.ts';
import { storeFile } from '../files/records.ts';
import type { FileStorages } from '../files/storages.ts';
import { newId } from '../ids.ts';
import { customerCopy, DocumentProblems, documentAmounts, type ItemBody } from '../resources/quotes/documents.ts';
import { queuePhotoPrint } from '../resources/work-orders/photo-prints.ts';

type Customer = { id: string; address: string | null; city: string | null };
type Status = (typeof workOrders.$inferSelect)['status'];
type DemoPhoto = { kind: 'before' | 'after' | 'other'; caption: string; colour: string; label: string };

const DAY_MS = 86_400_000;

const MAINTENANCE: (ItemBody & { minutes?: number })[] = [
  { type: 'labor', name: 'Arbeid monteur', quantity: 1.5, unit: 'uur', unit_price: 65, tax_rate: 21, minutes: 90 },
  {
    type: 'product',
    name: 'Filter cv-ketel',
    sku: 'FLT-2290',
    quantity: 1,
    unit: 'stuk',
    unit_price: 24.95,
    tax_rate: 21,
  },
  { type: 'travel', name: 'Voorrijkosten', quantity: 1, unit_price: 35, tax_rate: 21 },
];

const CHECKLIST = ['Rookgasafvoer gecontroleerd', 'Waterdruk gecontroleerd', 'Ketel gereinigd'];

/** A small JPEG: a coloured panel with a caption, drawn from SVG. */
async function demoPhoto(photo: DemoPhoto): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="320">
    <rect width="480" height="320" fill="${photo.colour}"/>
    <rect x="160" y="60" width="160" height="200" rx="12" fill="#ECEFF1" stroke="#37474F" stroke-width="6"/>
    <circle cx="240" cy="130" r="34" fill="#90A4AE"/>
    <text x="24" y="300" font-family="sans-serif" font-size="28" fill="#ffffff">${photo.label}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}

export async function addDemoWorkOrders(
  tx: Tx,
  companyId: string,
  now: Date,
  technician: { id: number },
  customers: Customer[],
  storages: FileStorages,
): Promise<void> {
  const visits = await tx
    .select({ id: appointments.id, customerId: appointments.customerId, startsAt: appointments.startsAt })
    .from(appointments)
    .where(and(eq(appointments.companyId, companyId), inArray(appointments.status, ['completed', 'confirmed'])))
    .orderBy(asc(appointments.startsAt));
  const at = (days: number, hour: number) => {
    const d = new Date(now.getTime() + days * DAY_MS);
    d.setUTCHours(hour, 0, 0, 0);
    return d;
  };
  const plans: {
    status: Status;
    days: number;
    checked: number;
    work?: string;
    signed?: string;
    photos?: DemoPhoto[];
  }[] = [
    {
      status: 'completed',
      days: -6,
      checked: 3,
      work: 'Ketel gereinigd, filter vervangen, druk bijgevuld tot 1,8 bar.',
      signed: 'Jan de Vries',
      photos: [
        { kind: 'before', caption: 'Ketel voor onderhoud', colour: '#8D6E63', label: 'Voor' },
        { kind: 'after', caption: 'Ketel na reiniging', colour: '#43A047', label: 'Na' },
      ],
    },
    { status: 'planned', days: 3, checked: 0 },
    {
      status: 'in_progress',
      days: 0,
      checked: 1,
      photos: [{ kind: 'before', caption: 'Lekkage bij de expansievaten', colour: '#1E88E5', label: 'Lekkage' }],
    },
    { status: 'draft', days: 10, checked: 0 },
    { status: 'cancelled', days: 2, checked: 0 },
  ];
  for (const [i, plan] of plans.entries()) {
    const customer = customers[i % customers.length];
    if (!customer) return;
    const problems = new DocumentProblems();
    const copy = await customerCopy(tx, companyId, customer.id, problems);
    const amounts = documentAmounts(MAINTENANCE, { percentage: 0, amount: 0 }, '21.00', problems);
    if (!copy || !amounts) throw new Error('demo work order: invalid lines or customer');
    const items: WorkOrderLine[] = amounts.items.map((line, n) => ({
      ...line,
      minutes: MAINTENANCE[n]?.minutes ?? null,
    }));
    const checklist: ChecklistPoint[] = CHECKLIST.map((label, n) => ({
      id: newId(),
      label,
      checked: n < plan.checked,
      required: n < 2,
      note: n === 1 && n < plan.checked ? '1,8 bar na bijvullen.' : null,
    }));
    const visit = visits.find((v) => v.customerId === customer.id);
    const scheduledAt = visit?.startsAt ?? at(plan.days, 8);
    const started = plan.status === 'completed' || plan.status === 'in_progress' ? scheduledAt : null;
    const completed = plan.status === 'completed' ? new Date(scheduledAt.getTime() + 2 * 3_600_000) : null;
    const createdAt = new Date(Math.min(now.getTime(), scheduledAt.getTime()) - 7 * DAY_MS);
    const id = newId();
    await tx.insert(workOrders).values({
      companyId,
      id,
      number: await nextDocumentNumber(tx, companyId, 'work_order'),
      status: plan.status,
      title: 'Onderhoud cv-ketel',
      type: 'Onderhoud',
      location: [customer.address, customer.city].filter(Boolean).join(', ') || null,
      description: 'Jaarlijks onderhoud van de cv-ketel, inclusief controle van de rookgasafvoer.',
      workPerformed: plan.work ?? null,
      customerNotes: i === 2 ? 'Sleutel ligt bij de buren.' : null,
      customerId: customer.id,
      customer: copy,
      appointmentId: visit?.id ?? null,
      assignedUserId: technician.id,
      language: 'nl',
      currency: 'EUR',
      subtotal: amounts.subtotal,
      taxAmount: amounts.taxAmount,
      total: amounts.total,
      items,
      checklist,
      scheduledAt,
      startedAt: started,
      completedAt: completed,
      signedByName: plan.signed ?? null,
      signedAt: plan.signed && completed ? new Date(completed.getTime() + 5 * 60_000) : null,
      createdAt,
      updatedAt: completed ?? createdAt,
    });
    for (const [n, photo] of (plan.photos ?? []).entries()) {
      const bytes = await demoPhoto(photo);
      const file = await storeFile(tx, storages, companyId, {
        name: `foto-${n + 1}.jpg`,
        mimeType: 'image/jpeg',
        size: bytes.byteLength,
        chunks: [bytes],
      });
      const photoId = newId();
      await tx.insert(workOrderPhotos).values({
        companyId,
        id: photoId,
        workOrderId: id,
        fileId: file.id,
        kind: photo.kind,
        caption: photo.caption,
        position: n + 1,
      });
      // Its print version, as for an upload: made by the worker once this commits.
      await queuePhotoPrint(tx, companyId, photoId);
    }
  }
}
