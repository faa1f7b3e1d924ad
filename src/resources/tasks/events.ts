import { type EventDeclarations, readWith } from '../../events/catalogue.ts';

const event = readWith('tasks.read');

export const taskEvents = {
  'task.created': event({ en: 'Task created', nl: 'Taak aangemaakt', de: 'Aufgabe angelegt', fr: 'Tâche créée' }),
  'task.updated': event({ en: 'Task changed', nl: 'Taak gewijzigd', de: 'Aufgabe geändert', fr: 'Tâche modifiée' }),
  'task.completed': event({ en: 'Task completed', nl: 'Taak afgerond', de: 'Aufgabe erledigt', fr: 'Tâche terminée' }),
  'task.comment_created': event({
    en: 'Comment on a task',
    nl: 'Reactie op een taak',
    de: 'Kommentar zu einer Aufgabe',
    fr: 'Commentaire sur une tâche',
  }),
} as const satisfies EventDeclarations;
