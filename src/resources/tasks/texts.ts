// What the service writes about tasks in the company's language: the default board's names, the history lines
// (system comments) and the notification emails. Not problem texts (messages.ts): these are stored or sent.
import { formatDate, pluralForm } from '../../domain/locale-format.ts';
import type { Language } from '../../languages.ts';

type Category = 'open' | 'in_progress' | 'completed' | 'cancelled';
type Priority = 'low' | 'normal' | 'high' | 'urgent';

type Texts = {
  board: string;
  columns: Record<Category, string>;
  priorities: Record<Priority, string>;
  none: string;
  unassigned: string;
  title: (from: string, to: string) => string;
  priority: (from: string, to: string) => string;
  dueDate: (from: string, to: string) => string;
  assigned: (name: string) => string;
  unassignedLine: string;
  links: (added: number, removed: number) => string;
  moved: (from: string, to: string) => string;
  completed: string;
  reopened: string;
  cancelled: string;
  date: (iso: string) => string;
  assignedSubject: (title: string) => string;
  assignedText: (title: string, due: string) => string;
  commentSubject: (title: string) => string;
  commentText: (title: string, body: string) => string;
};

/** A `YYYY-MM-DD` date in the language's one date style (19 maart 2026), as the PDFs and emails write it. */
const dateIn = (language: Language) => (date: string) => formatDate(date, language);

export const TASK_TEXTS: Record<Language, Texts> = {
  nl: {
    board: 'Taken',
    columns: { open: 'Te doen', in_progress: 'Mee bezig', completed: 'Klaar', cancelled: 'Geannuleerd' },
    priorities: { low: 'laag', normal: 'normaal', high: 'hoog', urgent: 'urgent' },
    none: 'geen',
    unassigned: 'niemand',
    title: (from, to) => `Titel gewijzigd van „${from}” naar „${to}”`,
    priority: (from, to) => `Prioriteit gewijzigd van ${from} naar ${to}`,
    dueDate: (from, to) => `Deadline gewijzigd van ${from} naar ${to}`,
    assigned: (name) => `Toegewezen aan ${name}`,
    unassignedLine: 'Toewijzing verwijderd',
    links: (added, removed) => `Koppelingen gewijzigd: ${added} toegevoegd, ${removed} verwijderd`,
    moved: (from, to) => `Verplaatst van ${from} naar ${to}`,
    completed: 'Taak afgerond',
    reopened: 'Taak heropend',
    cancelled: 'Taak geannuleerd',
    date: dateIn('nl'),
    assignedSubject: (title) => `Taak aan jou toegewezen: ${title}`,
    assignedText: (title, due) => `Je bent toegewezen aan de taak „${title}”.\nDeadline: ${due}.`,
    commentSubject: (title) => `Nieuwe reactie op de taak ${title}`,
    commentText: (title, body) => `Nieuwe reactie op de taak „${title}”:\n\n${body}`,
  },
  en: {
    board: 'Tasks',
    columns: { open: 'To do', in_progress: 'In progress', completed: 'Done', cancelled: 'Cancelled' },
    priorities: { low: 'low', normal: 'normal', high: 'high', urgent: 'urgent' },
    none: 'none',
    unassigned: 'nobody',
    title: (from, to) => `Title changed from “${from}” to “${to}”`,
    priority: (from, to) => `Priority changed from ${from} to ${to}`,
    dueDate: (from, to) => `Due date changed from ${from} to ${to}`,
    assigned: (name) => `Assigned to ${name}`,
    unassignedLine: 'Assignment removed',
    links: (added, removed) => `Links changed: ${added} added, ${removed} removed`,
    moved: (from, to) => `Moved from ${from} to ${to}`,
    completed: 'Task completed',
    reopened: 'Task reopened',
    cancelled: 'Task cancelled',
    date: dateIn('en'),
    assignedSubject: (title) => `Task assigned to you: ${title}`,
    assignedText: (title, due) => `You have been assigned the task “${title}”.\nDue date: ${due}.`,
    commentSubject: (title) => `New comment on the task ${title}`,
    commentText: (title, body) => `New comment on the task “${title}”:\n\n${body}`,
  },
  de: {
    board: 'Aufgaben',
    columns: { open: 'Zu erledigen', in_progress: 'In Bearbeitung', completed: 'Erledigt', cancelled: 'Abgebrochen' },
    priorities: { low: 'niedrig', normal: 'normal', high: 'hoch', urgent: 'dringend' },
    none: 'keine',
    unassigned: 'niemand',
    title: (from, to) => `Titel geändert von „${from}“ in „${to}“`,
    priority: (from, to) => `Priorität geändert von ${from} in ${to}`,
    dueDate: (from, to) => `Fälligkeitsdatum geändert von ${from} in ${to}`,
    assigned: (name) => `Zugewiesen an ${name}`,
    unassignedLine: 'Zuweisung entfernt',
    links: (added, removed) => `Verknüpfungen geändert: ${added} hinzugefügt, ${removed} entfernt`,
    moved: (from, to) => `Verschoben von ${from} nach ${to}`,
    completed: 'Aufgabe erledigt',
    reopened: 'Aufgabe wieder geöffnet',
    cancelled: 'Aufgabe abgebrochen',
    date: dateIn('de'),
    assignedSubject: (title) => `Ihnen zugewiesene Aufgabe: ${title}`,
    assignedText: (title, due) => `Ihnen wurde die Aufgabe „${title}“ zugewiesen.\nFällig: ${due}.`,
    commentSubject: (title) => `Neuer Kommentar zur Aufgabe ${title}`,
    commentText: (title, body) => `Neuer Kommentar zur Aufgabe „${title}“:\n\n${body}`,
  },
  fr: {
    board: 'Tâches',
    columns: { open: 'À faire', in_progress: 'En cours', completed: 'Terminé', cancelled: 'Annulé' },
    priorities: { low: 'basse', normal: 'normale', high: 'haute', urgent: 'urgente' },
    none: 'aucune',
    unassigned: 'personne',
    title: (from, to) => `Titre modifié de « ${from} » en « ${to} »`,
    priority: (from, to) => `Priorité modifiée de ${from} en ${to}`,
    dueDate: (from, to) => `Échéance modifiée de « ${from} » en « ${to} »`,
    assigned: (name) => `Assignée à ${name}`,
    unassignedLine: 'Assignation retirée',
    links: (added, removed) =>
      `Liens modifiés : ${pluralForm('one:# ajouté|other:# ajoutés', added, 'fr')}, ${pluralForm('one:# retiré|other:# retirés', removed, 'fr')}`,
    moved: (from, to) => `Déplacée de ${from} vers ${to}`,
    completed: 'Tâche terminée',
    reopened: 'Tâche rouverte',
    cancelled: 'Tâche annulée',
    date: dateIn('fr'),
    assignedSubject: (title) => `Tâche qui vous est assignée : ${title}`,
    assignedText: (title, due) => `La tâche « ${title} » vous a été assignée.\nÉchéance : ${due}.`,
    commentSubject: (title) => `Nouveau commentaire sur la tâche ${title}`,
    commentText: (title, body) => `Nouveau commentaire sur la tâche « ${title} » :\n\n${body}`,
  },
};

export const DEFAULT_COLUMNS: { category: Category; color: string | null }[] = [
  { category: 'open', color: null },
  { category: 'in_progress', color: '#3B82F6' },
  { category: 'completed', color: '#22C55E' },
  { category: 'cancelled', color: '#9CA3AF' },
];
