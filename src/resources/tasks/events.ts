import type { EventDeclarations } from '../../events/catalogue.ts';

export const taskEvents = {
  'task.created': {
    readScopes: ['tasks.read'],
    summary: { en: 'Task created', nl: 'Taak aangemaakt', de: 'Aufgabe angelegt', fr: 'Tâche créée' },
  },
  'task.updated': {
    readScopes: ['tasks.read'],
    summary: { en: 'Task changed', nl: 'Taak gewijzigd', de: 'Aufgabe geändert', fr: 'Tâche modifiée' },
  },
  'task.completed': {
    readScopes: ['tasks.read'],
    summary: { en: 'Task completed', nl: 'Taak afgerond', de: 'Aufgabe erledigt', fr: 'Tâche terminée' },
  },
  'task.comment_created': {
    readScopes: ['tasks.read'],
    summary: {
      en: 'Comment on a task',
      nl: 'Reactie op een taak',
      de: 'Kommentar zu einer Aufgabe',
      fr: 'Commentaire sur une tâche',
    },
  },
} as const satisfies EventDeclarations;
