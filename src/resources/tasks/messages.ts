// The problem texts of this resource, in the four languages (see src/http/messages.ts defineMessages).
import { defineMessages } from '../../http/message-catalogue.ts';

export const taskMessages = defineMessages({
  'task.not_found': {
    en: 'No task with this id exists.',
    nl: 'Er bestaat geen taak met dit id.',
    de: 'Es gibt keine Aufgabe mit dieser ID.',
    fr: 'Aucune tâche n’a cet identifiant.',
  },
  'task.unknown_column': {
    en: 'No column (task status) of the company has this id.',
    nl: 'Geen kolom (taakstatus) van het bedrijf heeft dit id.',
    de: 'Keine Spalte (Aufgabenstatus) des Unternehmens hat diese ID.',
    fr: 'Aucune colonne (statut de tâche) de l’entreprise n’a cet identifiant.',
  },
  'task.unknown_link': {
    en: 'No {object} of the company has this id.',
    nl: 'Geen {object} van het bedrijf heeft dit id.',
    de: 'Kein {object} des Unternehmens hat diese ID.',
    fr: 'Aucun {object} de l’entreprise n’a cet identifiant.',
  },
  'task.no_default_board': {
    en: 'The company has task boards but none is the default; give a `status_id`.',
    nl: 'Het bedrijf heeft taakborden, maar geen daarvan is het standaardbord; geef een `status_id` mee.',
    de: 'Das Unternehmen hat Aufgabenboards, aber keines ist das Standardboard; geben Sie eine `status_id` an.',
    fr: 'L’entreprise a des tableaux de tâches, mais aucun n’est le tableau par défaut ; indiquez un `status_id`.',
  },
  'task.no_column_of_category': {
    en: 'The task’s board has no default column of category {category}.',
    nl: 'Het bord van de taak heeft geen standaardkolom van categorie {category}.',
    de: 'Das Board der Aufgabe hat keine Standardspalte der Kategorie {category}.',
    fr: 'Le tableau de la tâche n’a pas de colonne par défaut de catégorie {category}.',
  },
  'task.complete_not_active': {
    en: 'Only an open or in-progress task can be completed; this task is {status}.',
    nl: 'Alleen een open taak of een taak die bezig is kan worden afgerond; deze taak heeft de status {status}.',
    de: 'Nur eine offene oder laufende Aufgabe kann erledigt werden; diese Aufgabe hat den Status {status}.',
    fr: 'Seule une tâche ouverte ou en cours peut être terminée ; cette tâche a le statut {status}.',
  },
  'task.cancel_not_active': {
    en: 'Only an open or in-progress task can be cancelled; this task is {status}.',
    nl: 'Alleen een open taak of een taak die bezig is kan worden geannuleerd; deze taak heeft de status {status}.',
    de: 'Nur eine offene oder laufende Aufgabe kann abgebrochen werden; diese Aufgabe hat den Status {status}.',
    fr: 'Seule une tâche ouverte ou en cours peut être annulée ; cette tâche a le statut {status}.',
  },
  'task.reopen_not_closed': {
    en: 'Only a completed or cancelled task can be reopened; this task is {status}.',
    nl: 'Alleen een afgeronde of geannuleerde taak kan worden heropend; deze taak heeft de status {status}.',
    de: 'Nur eine erledigte oder abgebrochene Aufgabe kann wieder geöffnet werden; diese Aufgabe hat den Status {status}.',
    fr: 'Seule une tâche terminée ou annulée peut être rouverte ; cette tâche a le statut {status}.',
  },
} as const);
