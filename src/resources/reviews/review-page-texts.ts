// The texts of the customer's review page in the four languages of a request.
import type { Language, Texts } from '../../languages.ts';
import type { AnswerField, AnswerProblem } from './answers.ts';

export const PAGE_TEXTS = {
  title: {
    en: 'Review {shop}',
    nl: 'Beoordeel {shop}',
    de: '{shop} bewerten',
    fr: 'Donnez votre avis sur {shop}',
  },
  intro: {
    en: 'Thank you for taking a minute to tell us how it went.',
    nl: 'Bedankt dat u even de tijd neemt om te vertellen hoe het ging.',
    de: 'Danke, dass Sie sich eine Minute Zeit nehmen, um uns zu erzählen, wie es war.',
    fr: 'Merci de prendre une minute pour nous dire comment cela s’est passé.',
  },
  rating: { en: 'Your rating', nl: 'Uw beoordeling', de: 'Ihre Bewertung', fr: 'Votre note' },
  comment: { en: 'Your review', nl: 'Uw review', de: 'Ihre Bewertung in Worten', fr: 'Votre avis' },
  commentHint: {
    en: 'Optional. What went well, what could be better?',
    nl: 'Optioneel. Wat ging goed, wat kan beter?',
    de: 'Optional. Was war gut, was könnte besser sein?',
    fr: 'Facultatif. Qu’est-ce qui était bien, que pourrions-nous améliorer ?',
  },
  name: { en: 'Your name', nl: 'Uw naam', de: 'Ihr Name', fr: 'Votre nom' },
  city: {
    en: 'Your town or city (optional)',
    nl: 'Uw woonplaats (optioneel)',
    de: 'Ihr Wohnort (optional)',
    fr: 'Votre ville (facultatif)',
  },
  consent: {
    en: '{shop} may publish my review with my name and town, for example on its website.',
    nl: '{shop} mag mijn review met mijn naam en woonplaats publiceren, bijvoorbeeld op de website.',
    de: '{shop} darf meine Bewertung mit meinem Namen und Wohnort veröffentlichen, zum Beispiel auf der Website.',
    fr: '{shop} peut publier mon avis avec mon nom et ma ville, par exemple sur son site web.',
  },
  submit: { en: 'Send review', nl: 'Review versturen', de: 'Bewertung senden', fr: 'Envoyer l’avis' },
  errorsHeading: {
    en: 'Please check the form',
    nl: 'Controleer het formulier',
    de: 'Bitte prüfen Sie das Formular',
    fr: 'Veuillez vérifier le formulaire',
  },
  thanksTitle: { en: 'Thank you!', nl: 'Bedankt!', de: 'Vielen Dank!', fr: 'Merci !' },
  thanks: {
    en: 'We have received your review. {shop} thanks you for your time.',
    nl: 'We hebben uw review ontvangen. {shop} bedankt u voor de moeite.',
    de: 'Wir haben Ihre Bewertung erhalten. {shop} dankt Ihnen für Ihre Zeit.',
    fr: 'Nous avons bien reçu votre avis. {shop} vous remercie de votre temps.',
  },
  alreadyTitle: {
    en: 'Review already received',
    nl: 'Review al ontvangen',
    de: 'Bewertung bereits erhalten',
    fr: 'Avis déjà reçu',
  },
  already: {
    en: 'This review request has already been answered; a request can be answered once. Thank you!',
    nl: 'Dit reviewverzoek is al beantwoord; een verzoek kan één keer worden beantwoord. Bedankt!',
    de: 'Diese Bewertungsanfrage wurde bereits beantwortet; eine Anfrage kann nur einmal beantwortet werden. Danke!',
    fr: 'Il a déjà été répondu à cette demande d’avis ; une demande ne peut recevoir qu’une réponse. Merci !',
  },
  closedTitle: {
    en: 'This link has expired',
    nl: 'Deze link is verlopen',
    de: 'Dieser Link ist abgelaufen',
    fr: 'Ce lien a expiré',
  },
  closed: {
    en: 'This review request is no longer open, so it can no longer be answered.',
    nl: 'Dit reviewverzoek staat niet meer open en kan niet meer worden beantwoord.',
    de: 'Diese Bewertungsanfrage ist nicht mehr offen und kann nicht mehr beantwortet werden.',
    fr: 'Cette demande d’avis n’est plus ouverte : il n’est plus possible d’y répondre.',
  },
  unknownTitle: { en: 'Link not found', nl: 'Link niet gevonden', de: 'Link nicht gefunden', fr: 'Lien introuvable' },
  unknown: {
    en: 'This link is not valid. Please check that you copied the whole address from the message.',
    nl: 'Deze link is niet geldig. Controleer of u het hele adres uit het bericht hebt gekopieerd.',
    de: 'Dieser Link ist ungültig. Bitte prüfen Sie, ob Sie die ganze Adresse aus der Nachricht kopiert haben.',
    fr: 'Ce lien n’est pas valide. Vérifiez que vous avez copié l’adresse complète du message.',
  },
  forbiddenTitle: {
    en: 'The form could not be sent',
    nl: 'Het formulier kon niet worden verstuurd',
    de: 'Das Formular konnte nicht gesendet werden',
    fr: 'Le formulaire n’a pas pu être envoyé',
  },
  forbidden: {
    en: 'The form was too old or did not come from this page. Please open the page again and send your review from there.',
    nl: 'Het formulier was te oud of kwam niet van deze pagina. Open de pagina opnieuw en verstuur uw review vanaf daar.',
    de: 'Das Formular war zu alt oder stammte nicht von dieser Seite. Bitte öffnen Sie die Seite erneut und senden Sie Ihre Bewertung von dort.',
    fr: 'Le formulaire était trop ancien ou ne provenait pas de cette page. Veuillez rouvrir la page et envoyer votre avis depuis celle-ci.',
  },
  tooManyTitle: {
    en: 'Too many requests',
    nl: 'Te veel verzoeken',
    de: 'Zu viele Anfragen',
    fr: 'Trop de requêtes',
  },
  tooMany: {
    en: 'This page was opened too often from your address. Please wait a minute and try again.',
    nl: 'Deze pagina is te vaak geopend vanaf uw adres. Wacht een minuut en probeer het opnieuw.',
    de: 'Diese Seite wurde von Ihrer Adresse aus zu oft geöffnet. Bitte warten Sie eine Minute und versuchen Sie es erneut.',
    fr: 'Cette page a été ouverte trop souvent depuis votre adresse. Veuillez patienter une minute et réessayer.',
  },
  reopen: {
    en: 'Open the review page',
    nl: 'Open de reviewpagina',
    de: 'Bewertungsseite öffnen',
    fr: 'Ouvrir la page d’avis',
  },
} as const satisfies Record<string, Texts>;

/** The labels of the five ratings. */
export const RATING_LABELS: Readonly<Record<Language, readonly [string, string, string, string, string]>> = {
  en: ['1 star: poor', '2 stars: fair', '3 stars: good', '4 stars: very good', '5 stars: excellent'],
  nl: ['1 ster: slecht', '2 sterren: matig', '3 sterren: goed', '4 sterren: zeer goed', '5 sterren: uitstekend'],
  de: ['1 Stern: schlecht', '2 Sterne: mäßig', '3 Sterne: gut', '4 Sterne: sehr gut', '5 Sterne: ausgezeichnet'],
  fr: [
    '1 étoile : mauvais',
    '2 étoiles : passable',
    '3 étoiles : bien',
    '4 étoiles : très bien',
    '5 étoiles : excellent',
  ],
};

export const FIELD_ERRORS: Readonly<Record<AnswerField, Partial<Record<AnswerProblem, Texts>>>> = {
  rating: {
    required: {
      en: 'Choose a rating from 1 to 5 stars.',
      nl: 'Kies een beoordeling van 1 tot 5 sterren.',
      de: 'Wählen Sie eine Bewertung von 1 bis 5 Sternen.',
      fr: 'Choisissez une note de 1 à 5 étoiles.',
    },
    invalid: {
      en: 'Choose a rating from 1 to 5 stars.',
      nl: 'Kies een beoordeling van 1 tot 5 sterren.',
      de: 'Wählen Sie eine Bewertung von 1 bis 5 Sternen.',
      fr: 'Choisissez une note de 1 à 5 étoiles.',
    },
  },
  name: {
    invalid: {
      en: 'Remove the invisible control characters from your name.',
      nl: 'Haal de onzichtbare stuurtekens uit uw naam.',
      de: 'Entfernen Sie die unsichtbaren Steuerzeichen aus Ihrem Namen.',
      fr: 'Retirez les caractères de contrôle invisibles de votre nom.',
    },
    required: {
      en: 'Enter your name.',
      nl: 'Vul uw naam in.',
      de: 'Geben Sie Ihren Namen ein.',
      fr: 'Saisissez votre nom.',
    },
    too_long: {
      en: 'Your name can be at most 100 characters.',
      nl: 'Uw naam mag hoogstens 100 tekens zijn.',
      de: 'Ihr Name darf höchstens 100 Zeichen lang sein.',
      fr: 'Votre nom peut comporter au plus 100 caractères.',
    },
  },
  city: {
    invalid: {
      en: 'Remove the invisible control characters from your town.',
      nl: 'Haal de onzichtbare stuurtekens uit uw woonplaats.',
      de: 'Entfernen Sie die unsichtbaren Steuerzeichen aus Ihrem Wohnort.',
      fr: 'Retirez les caractères de contrôle invisibles de votre ville.',
    },
    too_long: {
      en: 'Your town can be at most 100 characters.',
      nl: 'Uw woonplaats mag hoogstens 100 tekens zijn.',
      de: 'Ihr Wohnort darf höchstens 100 Zeichen lang sein.',
      fr: 'Votre ville peut comporter au plus 100 caractères.',
    },
  },
  comment: {
    invalid: {
      en: 'Remove the invisible control characters from your review.',
      nl: 'Haal de onzichtbare stuurtekens uit uw review.',
      de: 'Entfernen Sie die unsichtbaren Steuerzeichen aus Ihrer Bewertung.',
      fr: 'Retirez les caractères de contrôle invisibles de votre avis.',
    },
    too_long: {
      en: 'Your review can be at most 5000 characters.',
      nl: 'Uw review mag hoogstens 5000 tekens zijn.',
      de: 'Ihre Bewertung darf höchstens 5000 Zeichen lang sein.',
      fr: 'Votre avis peut comporter au plus 5000 caractères.',
    },
  },
};

export const fillShop = (text: string, shop: string) => text.replaceAll('{shop}', shop);
