// Speech for the language-mismatch benchmark (bench/language-mismatch.ts): the same twelve everyday
// sentences in English and in twelve other languages, read by espeak-ng in several voices and speeds,
// plus festival's English voice and pocketsphinx-testdata's real English recordings. Clips are two
// sentences long (about as much speech as a short recording), cached like the rest of the bench audio.
import { execFile } from 'node:child_process';
import fsp from 'node:fs/promises';
import { promisify } from 'node:util';
import { CACHE_DIR, EVERYDAY_SENTENCES } from './speech-corpus.js';
import { fileCache } from './file-cache.js';

const run = promisify(execFile);
const cached = fileCache(CACHE_DIR, 1);

/** The same meaning in every language: a meeting, an errand, the weather, a journey. */
export const SENTENCES: Record<string, readonly string[]> = {
  en: [
    ...EVERYDAY_SENTENCES,
    'My sister works at the hospital near the river.',
    'Could you send me the report before the end of the day?',
  ],
  es: [
    'Nos reuniremos en la oficina después del almuerzo para revisar el presupuesto.',
    'Por favor, recuerda cerrar la puerta con llave cuando salgas de casa.',
    'El pronóstico del tiempo dice que mañana por la tarde va a llover.',
    'Ella compró un coche nuevo la semana pasada y lo llevó a la playa.',
    'Nuestro equipo terminó el proyecto dos días antes de lo previsto.',
    'Los niños jugaron en el parque hasta que se hizo de noche.',
    'Le pidió al camarero un vaso de agua y la carta.',
    'El tren a la ciudad sale cada veinte minutos.',
    'Creo que deberíamos llamar al cliente y explicarle el retraso.',
    'La reunión se cambió al jueves por el día festivo.',
    'Mi hermana trabaja en el hospital cerca del río.',
    '¿Podrías enviarme el informe antes de que termine el día?',
  ],
  fr: [
    'Nous nous retrouverons au bureau après le déjeuner pour revoir le budget.',
    "N'oublie pas de fermer la porte à clé en quittant la maison.",
    'La météo annonce de la pluie pour demain après-midi.',
    "Elle a acheté une nouvelle voiture la semaine dernière et l'a conduite à la plage.",
    "Notre équipe a terminé le projet avec deux jours d'avance.",
    "Les enfants ont joué dans le parc jusqu'à la tombée de la nuit.",
    "Il a demandé au serveur un verre d'eau et la carte.",
    'Le train pour la ville part toutes les vingt minutes.',
    "Je pense qu'il faudrait appeler le client et lui expliquer le retard.",
    'La réunion a été déplacée à jeudi à cause du jour férié.',
    "Ma sœur travaille à l'hôpital près de la rivière.",
    "Pourrais-tu m'envoyer le rapport avant la fin de la journée?",
  ],
  de: [
    'Wir treffen uns nach dem Mittagessen im Büro, um das Budget zu besprechen.',
    'Denk bitte daran, die Tür abzuschließen, wenn du das Haus verlässt.',
    'Laut Wetterbericht soll es morgen Nachmittag regnen.',
    'Sie hat letzte Woche ein neues Auto gekauft und ist damit an den Strand gefahren.',
    'Unser Team hat das Projekt zwei Tage vor dem Zeitplan abgeschlossen.',
    'Die Kinder spielten im Park, bis es dunkel wurde.',
    'Er bat den Kellner um ein Glas Wasser und die Speisekarte.',
    'Der Zug in die Stadt fährt alle zwanzig Minuten.',
    'Ich finde, wir sollten den Kunden anrufen und die Verspätung erklären.',
    'Die Besprechung wurde wegen des Feiertags auf Donnerstag verschoben.',
    'Meine Schwester arbeitet im Krankenhaus am Fluss.',
    'Kannst du mir den Bericht vor Feierabend schicken?',
  ],
  it: [
    'Ci vediamo in ufficio dopo pranzo per rivedere il bilancio.',
    'Ricordati di chiudere la porta a chiave quando esci di casa.',
    'Le previsioni dicono che domani pomeriggio pioverà.',
    "La settimana scorsa ha comprato una macchina nuova e l'ha portata al mare.",
    'Il nostro gruppo ha finito il progetto con due giorni di anticipo.',
    'I bambini hanno giocato nel parco finché non è diventato buio.',
    "Ha chiesto al cameriere un bicchiere d'acqua e il menù.",
    'Il treno per la città parte ogni venti minuti.',
    'Penso che dovremmo chiamare il cliente e spiegargli il ritardo.',
    'La riunione è stata spostata a giovedì per via della festa.',
    "Mia sorella lavora all'ospedale vicino al fiume.",
    'Potresti mandarmi la relazione prima della fine della giornata?',
  ],
  pt: [
    'Vamos nos encontrar no escritório depois do almoço para rever o orçamento.',
    'Por favor, lembre-se de trancar a porta quando sair de casa.',
    'A previsão do tempo diz que vai chover amanhã à tarde.',
    'Ela comprou um carro novo na semana passada e foi com ele à praia.',
    'A nossa equipe terminou o projeto dois dias antes do prazo.',
    'As crianças brincaram no parque até escurecer.',
    'Ele pediu ao garçom um copo de água e o cardápio.',
    'O trem para a cidade sai a cada vinte minutos.',
    'Acho que devíamos ligar para o cliente e explicar o atraso.',
    'A reunião foi adiada para quinta-feira por causa do feriado.',
    'A minha irmã trabalha no hospital perto do rio.',
    'Você pode me mandar o relatório antes do fim do dia?',
  ],
  nl: [
    'We zien elkaar na de lunch op kantoor om de begroting door te nemen.',
    'Vergeet niet de deur op slot te doen als je het huis verlaat.',
    'Volgens het weerbericht gaat het morgenmiddag regenen.',
    'Ze kocht vorige week een nieuwe auto en reed ermee naar het strand.',
    'Ons team heeft het project twee dagen eerder dan gepland afgerond.',
    'De kinderen speelden in het park tot het donker werd.',
    'Hij vroeg de ober om een glas water en de menukaart.',
    'De trein naar de stad vertrekt elke twintig minuten.',
    'Ik denk dat we de klant moeten bellen om de vertraging uit te leggen.',
    'De vergadering is vanwege de feestdag naar donderdag verplaatst.',
    'Mijn zus werkt in het ziekenhuis bij de rivier.',
    'Kun je me het verslag voor het einde van de dag sturen?',
  ],
  pl: [
    'Spotkamy się w biurze po obiedzie, żeby przejrzeć budżet.',
    'Pamiętaj, żeby zamknąć drzwi na klucz, kiedy wychodzisz z domu.',
    'Według prognozy jutro po południu będzie padać deszcz.',
    'W zeszłym tygodniu kupiła nowy samochód i pojechała nim nad morze.',
    'Nasz zespół skończył projekt dwa dni przed terminem.',
    'Dzieci bawiły się w parku, dopóki nie zrobiło się ciemno.',
    'Poprosił kelnera o szklankę wody i kartę dań.',
    'Pociąg do miasta odjeżdża co dwadzieścia minut.',
    'Myślę, że powinniśmy zadzwonić do klienta i wyjaśnić opóźnienie.',
    'Zebranie przeniesiono na czwartek z powodu święta.',
    'Moja siostra pracuje w szpitalu nad rzeką.',
    'Czy możesz wysłać mi raport przed końcem dnia?',
  ],
  sv: [
    'Vi ses på kontoret efter lunch för att gå igenom budgeten.',
    'Kom ihåg att låsa dörren när du går hemifrån.',
    'Enligt väderprognosen blir det regn i morgon eftermiddag.',
    'Hon köpte en ny bil förra veckan och körde den till stranden.',
    'Vårt team blev klart med projektet två dagar före tidsplanen.',
    'Barnen lekte i parken tills det blev mörkt.',
    'Han bad servitören om ett glas vatten och menyn.',
    'Tåget till staden går var tjugonde minut.',
    'Jag tycker att vi borde ringa kunden och förklara förseningen.',
    'Mötet flyttades till torsdag på grund av helgdagen.',
    'Min syster arbetar på sjukhuset vid floden.',
    'Kan du skicka rapporten till mig innan dagen är slut?',
  ],
  tr: [
    'Bütçeyi gözden geçirmek için öğle yemeğinden sonra ofiste buluşacağız.',
    'Evden çıkarken kapıyı kilitlemeyi lütfen unutma.',
    'Hava durumuna göre yarın öğleden sonra yağmur yağacak.',
    'Geçen hafta yeni bir araba aldı ve onunla sahile gitti.',
    'Ekibimiz projeyi planlanandan iki gün önce bitirdi.',
    'Çocuklar hava kararana kadar parkta oynadılar.',
    'Garsondan bir bardak su ve menüyü istedi.',
    'Şehre giden tren her yirmi dakikada bir kalkıyor.',
    'Bence müşteriyi arayıp gecikmeyi açıklamalıyız.',
    'Toplantı bayram yüzünden perşembeye ertelendi.',
    'Kız kardeşim nehrin yakınındaki hastanede çalışıyor.',
    'Raporu gün bitmeden bana gönderebilir misin?',
  ],
  ru: [
    'Мы встретимся в офисе после обеда, чтобы обсудить бюджет.',
    'Пожалуйста, не забудь запереть дверь, когда будешь уходить из дома.',
    'По прогнозу погоды завтра днём будет дождь.',
    'На прошлой неделе она купила новую машину и поехала на ней на пляж.',
    'Наша команда закончила проект на два дня раньше срока.',
    'Дети играли в парке, пока не стемнело.',
    'Он попросил официанта принести стакан воды и меню.',
    'Поезд в город отправляется каждые двадцать минут.',
    'Я думаю, нам стоит позвонить клиенту и объяснить задержку.',
    'Совещание перенесли на четверг из-за праздника.',
    'Моя сестра работает в больнице у реки.',
    'Можешь прислать мне отчёт до конца дня?',
  ],
  fi: [
    'Tapaamme toimistolla lounaan jälkeen käydäksemme läpi budjetin.',
    'Muista lukita ovi, kun lähdet kotoa.',
    'Sääennusteen mukaan huomenna iltapäivällä sataa.',
    'Hän osti viime viikolla uuden auton ja ajoi sillä rannalle.',
    'Tiimimme sai projektin valmiiksi kaksi päivää etuajassa.',
    'Lapset leikkivät puistossa, kunnes tuli pimeää.',
    'Hän pyysi tarjoilijalta lasillisen vettä ja ruokalistan.',
    'Juna kaupunkiin lähtee kahdenkymmenen minuutin välein.',
    'Mielestäni meidän pitäisi soittaa asiakkaalle ja selittää viivästys.',
    'Kokous siirrettiin torstaille pyhäpäivän vuoksi.',
    'Siskoni työskentelee sairaalassa joen lähellä.',
    'Voisitko lähettää raportin minulle ennen päivän loppua?',
  ],
  cs: [
    'Sejdeme se po obědě v kanceláři a projdeme rozpočet.',
    'Nezapomeň zamknout dveře, až budeš odcházet z domu.',
    'Podle předpovědi bude zítra odpoledne pršet.',
    'Minulý týden si koupila nové auto a jela s ním k moři.',
    'Náš tým dokončil projekt o dva dny dříve.',
    'Děti si hrály v parku, dokud se nesetmělo.',
    'Požádal číšníka o sklenici vody a jídelní lístek.',
    'Vlak do města jezdí každých dvacet minut.',
    'Myslím, že bychom měli zavolat zákazníkovi a vysvětlit zpoždění.',
    'Schůzka byla kvůli svátku přesunuta na čtvrtek.',
    'Moje sestra pracuje v nemocnici u řeky.',
    'Mohl bys mi poslat zprávu do konce dne?',
  ],
};

/** The languages other than English the bench speaks (espeak-ng voice names are the codes). */
export const OTHER_LANGUAGES = Object.keys(SENTENCES).filter((l) => l !== 'en');

/** espeak-ng voice variants (pitch and formants) and speeds (words per minute) clips are read in. */
export const ESPEAK_VARIANTS = ['', '+m3', '+f2', '+m7', '+f4'] as const;
export const ESPEAK_SPEEDS = [150, 175] as const;
/** English accents espeak-ng has. */
export const ENGLISH_VOICES = ['en-us', 'en-gb', 'en-gb-x-rp', 'en-gb-scotland', 'en-us-nyc', 'en-029'] as const;

/** espeak-ng reading `text` in `voice` at `speed` words per minute, as 16 kHz mono WAV. */
export async function espeakVoiceWav(voice: string, speed: number, text: string): Promise<string> {
  return cached(['espeak', voice, speed, text], 'wav', async (tmp) => {
    const raw = `${tmp}.22k.wav`;
    try {
      await run('espeak-ng', ['-v', voice, '-s', String(speed), '-w', raw, '--', text]);
      await run('sox', [raw, '-r', '16000', '-c', '1', '-b', '16', tmp]);
    } finally {
      await fsp.rm(raw, { force: true });
    }
  });
}

/** Pairs of consecutive sentences (i, i+1), wrapping: twelve two-sentence texts per language. */
export function sentencePairs(language: string): string[] {
  const s = SENTENCES[language]!;
  return s.map((one, i) => `${one} ${s[(i + 1) % s.length]}`);
}
