import type { Language } from '../../lib/languageDetection';

export interface LegalSection {
  heading: string;
  paragraphs: string[];
}

export interface LegalDocument {
  title: string;
  intro: string;
  sections: LegalSection[];
}

export const privacy: Record<Language, LegalDocument> = {
  en: {
    title: 'Privacy policy',
    intro:
      'DevHub is a self-hosted site that its owner runs on their own server. This page explains what the site records about visitors and why. Nothing is shared with advertisers or analytics services, and the site loads no scripts, fonts or other resources from third-party hosts.',
    sections: [
      {
        heading: 'What is recorded when you visit',
        paragraphs: [
          'The site keeps an activity log: an event when a page loads, when you move between pages, and when the visitor is a guest. Each event stores the action, the page paths involved, the time, your IP address and the technical details your browser reports: user agent, language, time zone, screen size and colour depth, referrer, platform, vendor, connection type and speed, device memory, number of CPU cores and device type (mobile, tablet or desktop).',
          'If you are signed in, the event is linked to your account.',
        ],
      },
      {
        heading: 'Your IP address and country',
        paragraphs: [
          'Your country is looked up from your IP address in a database stored on the server itself; no outside service is asked. The country is used to choose the interface language and is shown to you on the “Your IP” page.',
        ],
      },
      {
        heading: 'Accounts',
        paragraphs: [
          'If you register, the site stores your name, e-mail address, role and a salted hash of your password (never the password itself), together with session records that keep you signed in. Your access token is kept in your browser’s local storage under the key “token”.',
        ],
      },
      {
        heading: 'Uploaded files',
        paragraphs: [
          'Files uploaded to the file cloud are stored on the server with their original name, size, type and upload time. Any visitor can list and download the files in the cloud, so do not upload anything private.',
        ],
      },
      {
        heading: 'Storage in your browser',
        paragraphs: [
          'Your browser keeps the interface language you chose (“preferredLanguage”) and, while you are signed in, your access token. The site uses no advertising or tracking cookies.',
        ],
      },
      {
        heading: 'How long data is kept',
        paragraphs: [
          'The activity log has a fixed maximum size: once it is full, the oldest events are deleted. Account data is kept until the account is removed. Uploaded files stay until an administrator deletes them.',
        ],
      },
      {
        heading: 'Your choices',
        paragraphs: [
          'You can clear the site’s local storage at any time in your browser settings. To ask what is stored about you, or to have your account or files removed, contact the site owner using the details in the footer.',
        ],
      },
    ],
  },
  uk: {
    title: 'Політика конфіденційності',
    intro:
      'DevHub — сайт, який власник розміщує на власному сервері. Тут пояснено, що сайт записує про відвідувачів і навіщо. Нічого не передається рекламодавцям чи сервісам аналітики, а сайт не завантажує скриптів, шрифтів чи інших ресурсів зі сторонніх серверів.',
    sections: [
      {
        heading: 'Що записується під час відвідування',
        paragraphs: [
          'Сайт веде журнал активності: подію при завантаженні сторінки, при переході між сторінками та коли відвідувач є гостем. Кожна подія містить дію, шляхи сторінок, час, вашу IP-адресу і технічні дані, які повідомляє браузер: user agent, мову, часовий пояс, розмір екрана і глибину кольору, referrer, платформу, виробника, тип і швидкість з’єднання, обсяг пам’яті пристрою, кількість ядер процесора та тип пристрою (мобільний, планшет або комп’ютер).',
          'Якщо ви увійшли до облікового запису, подія пов’язується з ним.',
        ],
      },
      {
        heading: 'IP-адреса та країна',
        paragraphs: [
          'Країну визначають за IP-адресою з бази даних, що зберігається на самому сервері; сторонні сервіси не залучаються. Країна використовується для вибору мови інтерфейсу і показується вам на сторінці «Ваш IP».',
        ],
      },
      {
        heading: 'Облікові записи',
        paragraphs: [
          'Під час реєстрації сайт зберігає ваше ім’я, e-mail, роль і хеш пароля з сіллю (самого пароля — ніколи), а також записи сесій, щоб ви залишалися в системі. Токен доступу зберігається в локальному сховищі браузера під ключем «token».',
        ],
      },
      {
        heading: 'Завантажені файли',
        paragraphs: [
          'Файли, завантажені до файлової хмари, зберігаються на сервері разом з оригінальною назвою, розміром, типом і часом завантаження. Будь-який відвідувач може переглянути список файлів і завантажити їх, тож не завантажуйте нічого приватного.',
        ],
      },
      {
        heading: 'Дані у вашому браузері',
        paragraphs: [
          'Браузер зберігає обрану мову інтерфейсу («preferredLanguage») і, поки ви в системі, токен доступу. Сайт не використовує рекламних чи стежувальних cookie.',
        ],
      },
      {
        heading: 'Скільки зберігаються дані',
        paragraphs: [
          'Журнал активності має обмежений розмір: коли він заповнений, найстаріші події видаляються. Дані облікового запису зберігаються, доки запис не видалено. Завантажені файли зберігаються, доки їх не видалить адміністратор.',
        ],
      },
      {
        heading: 'Ваш вибір',
        paragraphs: [
          'Ви можете будь-коли очистити локальне сховище сайту в налаштуваннях браузера. Щоб дізнатися, що про вас зберігається, або видалити обліковий запис чи файли, зверніться до власника сайту за контактами внизу сторінки.',
        ],
      },
    ],
  },
  ru: {
    title: 'Политика конфиденциальности',
    intro:
      'DevHub — сайт, который владелец размещает на собственном сервере. Здесь объясняется, что сайт записывает о посетителях и зачем. Ничего не передаётся рекламодателям или сервисам аналитики, а сайт не загружает скриптов, шрифтов или других ресурсов со сторонних серверов.',
    sections: [
      {
        heading: 'Что записывается при посещении',
        paragraphs: [
          'Сайт ведёт журнал активности: событие при загрузке страницы, при переходе между страницами и когда посетитель является гостем. Каждое событие содержит действие, пути страниц, время, ваш IP-адрес и технические данные, которые сообщает браузер: user agent, язык, часовой пояс, размер экрана и глубину цвета, referrer, платформу, производителя, тип и скорость соединения, объём памяти устройства, количество ядер процессора и тип устройства (мобильный, планшет или компьютер).',
          'Если вы вошли в учётную запись, событие связывается с ней.',
        ],
      },
      {
        heading: 'IP-адрес и страна',
        paragraphs: [
          'Страна определяется по IP-адресу из базы данных, хранящейся на самом сервере; сторонние сервисы не используются. Страна нужна для выбора языка интерфейса и показывается вам на странице «Ваш IP».',
        ],
      },
      {
        heading: 'Учётные записи',
        paragraphs: [
          'При регистрации сайт хранит ваше имя, e-mail, роль и хеш пароля с солью (сам пароль — никогда), а также записи сессий, чтобы вы оставались в системе. Токен доступа хранится в локальном хранилище браузера под ключом «token».',
        ],
      },
      {
        heading: 'Загруженные файлы',
        paragraphs: [
          'Файлы, загруженные в файловое облако, хранятся на сервере вместе с исходным именем, размером, типом и временем загрузки. Любой посетитель может просмотреть список файлов и скачать их, поэтому не загружайте ничего личного.',
        ],
      },
      {
        heading: 'Данные в вашем браузере',
        paragraphs: [
          'Браузер хранит выбранный язык интерфейса («preferredLanguage») и, пока вы в системе, токен доступа. Сайт не использует рекламных или отслеживающих cookie.',
        ],
      },
      {
        heading: 'Сколько хранятся данные',
        paragraphs: [
          'Журнал активности имеет ограниченный размер: когда он заполнен, самые старые события удаляются. Данные учётной записи хранятся, пока запись не удалена. Загруженные файлы хранятся, пока их не удалит администратор.',
        ],
      },
      {
        heading: 'Ваш выбор',
        paragraphs: [
          'Вы можете в любой момент очистить локальное хранилище сайта в настройках браузера. Чтобы узнать, что о вас хранится, или удалить учётную запись или файлы, свяжитесь с владельцем сайта по контактам внизу страницы.',
        ],
      },
    ],
  },
};

export const terms: Record<Language, LegalDocument> = {
  en: {
    title: 'Terms of use',
    intro:
      'By using this site you agree to these terms. DevHub is a personal, self-hosted project provided as it is.',
    sections: [
      {
        heading: 'The service',
        paragraphs: [
          'The site offers browser tools, a blog, a file cloud, retro-game emulators and an account area. Features may change or be removed at any time without notice.',
        ],
      },
      {
        heading: 'Accounts',
        paragraphs: [
          'Keep your password secret: you are responsible for what is done with your account. The owner may suspend or remove accounts that break these terms.',
        ],
      },
      {
        heading: 'Uploaded files',
        paragraphs: [
          'Upload only files you have the right to share. Do not upload malware, unlawful content or other people’s personal data. Files in the cloud are visible to every visitor, and the owner may remove any file without notice.',
        ],
      },
      {
        heading: 'Games',
        paragraphs: [
          'The emulators run games provided by the site owner. Play them for personal, non-commercial use and respect the rights of their authors.',
        ],
      },
      {
        heading: 'Acceptable use',
        paragraphs: [
          'Do not try to disrupt the site, get around its access controls, flood it with automated requests or use it to harm others.',
        ],
      },
      {
        heading: 'No warranty',
        paragraphs: [
          'The site comes without any warranty. The owner is not liable for lost data, downtime or any damage arising from its use. Keep your own copies of important files.',
        ],
      },
      {
        heading: 'Changes and contact',
        paragraphs: [
          'These terms may be updated; the current version is always on this page. Questions go to the owner via the contacts in the footer.',
        ],
      },
    ],
  },
  uk: {
    title: 'Умови використання',
    intro:
      'Користуючись сайтом, ви погоджуєтеся з цими умовами. DevHub — особистий проєкт на власному сервері, що надається «як є».',
    sections: [
      {
        heading: 'Сервіс',
        paragraphs: [
          'Сайт пропонує браузерні інструменти, блог, файлову хмару, емулятори ретроігор і особистий кабінет. Функції можуть змінюватися або зникати будь-коли без попередження.',
        ],
      },
      {
        heading: 'Облікові записи',
        paragraphs: [
          'Тримайте пароль у таємниці: ви відповідаєте за дії з вашим обліковим записом. Власник може призупинити або видалити облікові записи, що порушують ці умови.',
        ],
      },
      {
        heading: 'Завантажені файли',
        paragraphs: [
          'Завантажуйте лише файли, якими маєте право ділитися. Не завантажуйте шкідливе програмне забезпечення, незаконний вміст чи персональні дані інших людей. Файли в хмарі бачить кожен відвідувач, а власник може видалити будь-який файл без попередження.',
        ],
      },
      {
        heading: 'Ігри',
        paragraphs: [
          'Емулятори запускають ігри, які надає власник сайту. Грайте для особистого некомерційного використання й поважайте права їхніх авторів.',
        ],
      },
      {
        heading: 'Допустиме використання',
        paragraphs: [
          'Не намагайтеся порушити роботу сайту, обійти обмеження доступу, заваловувати його автоматичними запитами чи використовувати його на шкоду іншим.',
        ],
      },
      {
        heading: 'Відсутність гарантій',
        paragraphs: [
          'Сайт надається без будь-яких гарантій. Власник не відповідає за втрату даних, перерви в роботі чи будь-яку шкоду від його використання. Зберігайте власні копії важливих файлів.',
        ],
      },
      {
        heading: 'Зміни та контакти',
        paragraphs: [
          'Ці умови можуть оновлюватися; чинна версія завжди на цій сторінці. З питаннями звертайтеся до власника за контактами внизу сторінки.',
        ],
      },
    ],
  },
  ru: {
    title: 'Условия использования',
    intro:
      'Пользуясь сайтом, вы соглашаетесь с этими условиями. DevHub — личный проект на собственном сервере, предоставляемый «как есть».',
    sections: [
      {
        heading: 'Сервис',
        paragraphs: [
          'Сайт предлагает браузерные инструменты, блог, файловое облако, эмуляторы ретро-игр и личный кабинет. Функции могут меняться или исчезать в любой момент без предупреждения.',
        ],
      },
      {
        heading: 'Учётные записи',
        paragraphs: [
          'Держите пароль в секрете: вы отвечаете за действия с вашей учётной записью. Владелец может приостановить или удалить учётные записи, нарушающие эти условия.',
        ],
      },
      {
        heading: 'Загруженные файлы',
        paragraphs: [
          'Загружайте только файлы, которыми вы вправе делиться. Не загружайте вредоносные программы, незаконный контент или персональные данные других людей. Файлы в облаке видит каждый посетитель, а владелец может удалить любой файл без предупреждения.',
        ],
      },
      {
        heading: 'Игры',
        paragraphs: [
          'Эмуляторы запускают игры, которые предоставляет владелец сайта. Играйте для личного некоммерческого использования и уважайте права их авторов.',
        ],
      },
      {
        heading: 'Допустимое использование',
        paragraphs: [
          'Не пытайтесь нарушить работу сайта, обойти ограничения доступа, заваливать его автоматическими запросами или использовать его во вред другим.',
        ],
      },
      {
        heading: 'Отсутствие гарантий',
        paragraphs: [
          'Сайт предоставляется без каких-либо гарантий. Владелец не отвечает за потерю данных, перерывы в работе или любой ущерб от его использования. Храните собственные копии важных файлов.',
        ],
      },
      {
        heading: 'Изменения и контакты',
        paragraphs: [
          'Эти условия могут обновляться; действующая версия всегда на этой странице. С вопросами обращайтесь к владельцу по контактам внизу страницы.',
        ],
      },
    ],
  },
};
