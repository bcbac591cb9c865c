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
      'DevHub is a self-hosted site that its owner runs on their own server. This page explains what the site keeps about visitors and users, who can see it and for how long. Nothing is shared with advertisers or analytics services, and the site loads no scripts, fonts or styles from third-party hosts.',
    sections: [
      {
        heading: 'What is recorded when you visit',
        paragraphs: [
          'The site keeps an activity log: an event when a page loads, when you move between pages, and when the visitor is a guest. Each event stores the action, the page paths involved, the time, your IP address and the technical details your browser reports: user agent, language, time zone, screen size and colour depth, referrer, platform, vendor, connection type and speed, device memory, number of CPU cores and device type (mobile, tablet or desktop).',
          'If you are signed in, the event is linked to your account. The server also writes a line for every request to its own log (method, path, result, duration and IP address), which only the owner reads.',
        ],
      },
      {
        heading: 'Your IP address and country',
        paragraphs: [
          'Your country (and your city, where the owner has installed a city database) is looked up from your IP address in a database stored on the server itself; no outside service is asked. The country is used to choose the interface language and is shown to you on the “Your IP” page.',
        ],
      },
      {
        heading: 'Accounts and sessions',
        paragraphs: [
          'If you register, the site stores your name, e-mail address, role, the time you registered and a salted hash of your password (never the password itself).',
          'Each device you sign in on is a session. For each one the site keeps when it started and was last used, the IP address and the browser’s user agent, so that you can recognise your devices in the profile and end any of them. A session ends when you sign out, when you or an administrator end it, or after a period without use (30 days unless the owner set another).',
        ],
      },
      {
        heading: 'Two-factor sign-in and passkeys',
        paragraphs: [
          'If you turn on two-factor sign-in, the server keeps the secret your authenticator app shares with it (it needs it to check your codes) and your recovery codes only as hashes; each recovery code works once.',
          'For a passkey the server keeps its public key, the name you gave it and when it was added and last used. The private key never leaves your device or password manager.',
        ],
      },
      {
        heading: 'Security audit log',
        paragraphs: [
          'Security events are kept in an audit log that administrators can read: sign-ins and failed sign-in attempts (with the e-mail address that was typed), two-factor sign-in turned on or off, passkeys added or removed, password and role changes, sessions ended, accounts created or deleted, invitations, storage quota changes, and share links created, used or withdrawn. Each event records when it happened, from which IP address, who did it and to whom.',
        ],
      },
      {
        heading: 'Uploaded files: public and private',
        paragraphs: [
          'Files uploaded to the file cloud are stored on the server with their original name, size, type, a checksum, who uploaded them and when. Images get a small preview (thumbnail), made on the server and kept as long as the file.',
          'Each file is public or private, and its uploader can change that at any time. A public file can be listed and downloaded by any visitor. A private file is seen only by its uploader and by the site’s administrators; to everyone else it does not appear in the lists and its address answers as if it did not exist.',
          'What you upload, save states included, counts towards your storage quota, which the owner sets.',
        ],
      },
      {
        heading: 'Share links',
        paragraphs: [
          'The uploader of a file (or an administrator) can make a share link to it — also to a private file. Anyone who has the link can download the file until the link expires (after 7 days unless another time was chosen, at most a year), reaches its download limit or is withdrawn. A link can ask for a password, which is stored only as a hash.',
          'The site counts a link’s downloads, and each download is recorded in the audit log with its time and IP address.',
        ],
      },
      {
        heading: 'Games and save states',
        paragraphs: [
          'If you are signed in, the games page keeps on the server your save states (an autosave and five slots per game, each with a screenshot of the game), your favourite and recently played games and your controls for each console, so that they follow you to another device. You can delete any save state yourself.',
          'As a guest, your save states, favourites, recent games and controls stay in your browser only.',
        ],
      },
      {
        heading: 'Storage in your browser',
        paragraphs: [
          'Your browser keeps the interface language you chose (“preferredLanguage”), while you are signed in your access token (“token”), the addresses of unfinished uploads (so that a large upload can continue after a reload) and, as a guest, your games and save states.',
          'The site sets one cookie to keep you signed in (“refresh_token”, not readable by scripts) and, when you open a share link, two cookies for that link only (that you gave its password, and that your visit was counted). It uses no advertising or tracking cookies.',
        ],
      },
      {
        heading: 'How long data is kept',
        paragraphs: [
          'The activity log and the audit log each have a fixed maximum size (by default 10 000 and 20 000 events): once one is full, its oldest events are deleted. Sessions end as described above. Account data is kept until the account is removed. Uploaded files and their thumbnails stay until an administrator deletes them; save states until you delete them.',
        ],
      },
      {
        heading: 'Your choices',
        paragraphs: [
          'You can make your files private, withdraw your share links, end your sessions, turn two-factor sign-in on or off and delete your save states in the site itself, and clear the site’s storage at any time in your browser settings. To ask what is stored about you, or to have your account, files or save states removed, contact the site owner using the details in the footer.',
        ],
      },
    ],
  },
  uk: {
    title: 'Політика конфіденційності',
    intro:
      'DevHub — сайт, який власник розміщує на власному сервері. Тут пояснено, що сайт зберігає про відвідувачів і користувачів, хто це бачить і як довго. Нічого не передається рекламодавцям чи сервісам аналітики, а сайт не завантажує скриптів, шрифтів чи стилів зі сторонніх серверів.',
    sections: [
      {
        heading: 'Що записується під час відвідування',
        paragraphs: [
          'Сайт веде журнал активності: подію при завантаженні сторінки, при переході між сторінками та коли відвідувач є гостем. Кожна подія містить дію, шляхи сторінок, час, вашу IP-адресу і технічні дані, які повідомляє браузер: user agent, мову, часовий пояс, розмір екрана і глибину кольору, referrer, платформу, виробника, тип і швидкість з’єднання, обсяг пам’яті пристрою, кількість ядер процесора та тип пристрою (мобільний, планшет або комп’ютер).',
          'Якщо ви увійшли до облікового запису, подія пов’язується з ним. Сервер також записує рядок про кожен запит до власного журналу (метод, шлях, результат, тривалість і IP-адресу), який читає лише власник.',
        ],
      },
      {
        heading: 'IP-адреса та країна',
        paragraphs: [
          'Країну (і місто, якщо власник установив базу міст) визначають за IP-адресою з бази даних, що зберігається на самому сервері; сторонні сервіси не залучаються. Країна використовується для вибору мови інтерфейсу і показується вам на сторінці «Ваш IP».',
        ],
      },
      {
        heading: 'Облікові записи та сесії',
        paragraphs: [
          'Під час реєстрації сайт зберігає ваше ім’я, e-mail, роль, час реєстрації і хеш пароля з сіллю (самого пароля — ніколи).',
          'Кожен пристрій, на якому ви увійшли, — це сесія. Для кожної сайт зберігає, коли вона почалася і коли використовувалася востаннє, IP-адресу та user agent браузера, щоб ви могли впізнати свої пристрої в профілі й завершити будь-яку сесію. Сесія завершується, коли ви виходите, коли її завершуєте ви чи адміністратор або після періоду без використання (30 днів, якщо власник не встановив інший).',
        ],
      },
      {
        heading: 'Двофакторний вхід і ключі доступу',
        paragraphs: [
          'Якщо ви ввімкнули двофакторний вхід, сервер зберігає секрет, спільний із вашим застосунком-автентифікатором (без нього не перевірити коди), а резервні коди — лише як хеші; кожен резервний код діє один раз.',
          'Для ключа доступу (passkey) сервер зберігає його відкритий ключ, назву, яку ви йому дали, і коли його додано та востаннє використано. Закритий ключ ніколи не залишає ваш пристрій чи менеджер паролів.',
        ],
      },
      {
        heading: 'Журнал аудиту безпеки',
        paragraphs: [
          'Події безпеки зберігаються в журналі аудиту, який можуть читати адміністратори: входи й невдалі спроби входу (з e-mail, який було введено), увімкнення чи вимкнення двофакторного входу, додавання чи видалення ключів доступу, зміни пароля й ролі, завершені сесії, створені чи видалені облікові записи, запрошення, зміни квоти сховища, а також створення, використання чи відкликання посилань для обміну. Кожна подія містить час, IP-адресу, хто діяв і щодо кого.',
        ],
      },
      {
        heading: 'Завантажені файли: публічні та приватні',
        paragraphs: [
          'Файли, завантажені до файлової хмари, зберігаються на сервері разом з оригінальною назвою, розміром, типом, контрольною сумою, тим, хто і коли їх завантажив. Для зображень сервер робить невеликий попередній перегляд (мініатюру), що зберігається стільки ж, скільки файл.',
          'Кожен файл публічний або приватний, і той, хто його завантажив, може будь-коли це змінити. Публічний файл будь-який відвідувач може побачити в списку й завантажити. Приватний файл бачать лише той, хто його завантажив, і адміністратори сайту; для всіх інших його немає в списках, а його адреса відповідає так, ніби файлу не існує.',
          'Усе, що ви завантажуєте, зокрема збереження ігор, зараховується до вашої квоти сховища, яку встановлює власник.',
        ],
      },
      {
        heading: 'Посилання для обміну',
        paragraphs: [
          'Той, хто завантажив файл (або адміністратор), може створити посилання на нього — зокрема на приватний файл. Будь-хто, хто має посилання, може завантажити файл, доки посилання не спливе (через 7 днів, якщо не вибрано інший строк, щонайбільше через рік), не вичерпає ліміт завантажень або не буде відкликане. Посилання може вимагати пароль, який зберігається лише як хеш.',
          'Сайт рахує завантаження за посиланням, і кожне завантаження записується до журналу аудиту з часом та IP-адресою.',
        ],
      },
      {
        heading: 'Ігри та збереження',
        paragraphs: [
          'Якщо ви увійшли, сторінка ігор зберігає на сервері ваші збереження (автозбереження і п’ять слотів для кожної гри, кожне зі знімком екрана гри), улюблені й нещодавні ігри та ваше керування для кожної консолі, щоб вони були з вами й на іншому пристрої. Будь-яке збереження ви можете видалити самі.',
          'Для гостя збереження, улюблені й нещодавні ігри та керування залишаються лише у браузері.',
        ],
      },
      {
        heading: 'Дані у вашому браузері',
        paragraphs: [
          'Браузер зберігає обрану мову інтерфейсу («preferredLanguage»), поки ви в системі — токен доступу («token»), адреси незавершених завантажень (щоб велике завантаження можна було продовжити після перезавантаження сторінки), а для гостя — ваші ігри та збереження.',
          'Сайт встановлює один cookie, щоб ви залишалися в системі («refresh_token», недоступний для скриптів), а коли ви відкриваєте посилання для обміну — два cookie лише для цього посилання (що ви ввели його пароль і що ваш візит зараховано). Сайт не використовує рекламних чи стежувальних cookie.',
        ],
      },
      {
        heading: 'Скільки зберігаються дані',
        paragraphs: [
          'Журнал активності та журнал аудиту мають обмежений розмір (типово 10 000 і 20 000 подій): коли журнал заповнений, найстаріші події видаляються. Сесії завершуються, як описано вище. Дані облікового запису зберігаються, доки запис не видалено. Завантажені файли та їхні мініатюри зберігаються, доки їх не видалить адміністратор, а збереження ігор — доки їх не видалите ви.',
        ],
      },
      {
        heading: 'Ваш вибір',
        paragraphs: [
          'На самому сайті ви можете зробити свої файли приватними, відкликати посилання для обміну, завершити сесії, увімкнути чи вимкнути двофакторний вхід і видалити збереження ігор, а в налаштуваннях браузера — будь-коли очистити сховище сайту. Щоб дізнатися, що про вас зберігається, або видалити обліковий запис, файли чи збереження, зверніться до власника сайту за контактами внизу сторінки.',
        ],
      },
    ],
  },
  ru: {
    title: 'Политика конфиденциальности',
    intro:
      'DevHub — сайт, который владелец размещает на собственном сервере. Здесь объясняется, что сайт хранит о посетителях и пользователях, кто это видит и как долго. Ничего не передаётся рекламодателям или сервисам аналитики, а сайт не загружает скриптов, шрифтов или стилей со сторонних серверов.',
    sections: [
      {
        heading: 'Что записывается при посещении',
        paragraphs: [
          'Сайт ведёт журнал активности: событие при загрузке страницы, при переходе между страницами и когда посетитель является гостем. Каждое событие содержит действие, пути страниц, время, ваш IP-адрес и технические данные, которые сообщает браузер: user agent, язык, часовой пояс, размер экрана и глубину цвета, referrer, платформу, производителя, тип и скорость соединения, объём памяти устройства, количество ядер процессора и тип устройства (мобильный, планшет или компьютер).',
          'Если вы вошли в учётную запись, событие связывается с ней. Сервер также записывает строку о каждом запросе в собственный журнал (метод, путь, результат, длительность и IP-адрес), который читает только владелец.',
        ],
      },
      {
        heading: 'IP-адрес и страна',
        paragraphs: [
          'Страна (и город, если владелец установил базу городов) определяется по IP-адресу из базы данных, хранящейся на самом сервере; сторонние сервисы не используются. Страна нужна для выбора языка интерфейса и показывается вам на странице «Ваш IP».',
        ],
      },
      {
        heading: 'Учётные записи и сессии',
        paragraphs: [
          'При регистрации сайт хранит ваше имя, e-mail, роль, время регистрации и хеш пароля с солью (сам пароль — никогда).',
          'Каждое устройство, на котором вы вошли, — это сессия. Для каждой сайт хранит, когда она началась и когда использовалась в последний раз, IP-адрес и user agent браузера, чтобы вы могли узнать свои устройства в профиле и завершить любую сессию. Сессия завершается, когда вы выходите, когда её завершаете вы или администратор, или после периода без использования (30 дней, если владелец не установил другой).',
        ],
      },
      {
        heading: 'Двухфакторный вход и ключи доступа',
        paragraphs: [
          'Если вы включили двухфакторный вход, сервер хранит секрет, общий с вашим приложением-аутентификатором (без него не проверить коды), а резервные коды — только в виде хешей; каждый резервный код действует один раз.',
          'Для ключа доступа (passkey) сервер хранит его открытый ключ, название, которое вы ему дали, и когда он добавлен и последний раз использован. Закрытый ключ никогда не покидает ваше устройство или менеджер паролей.',
        ],
      },
      {
        heading: 'Журнал аудита безопасности',
        paragraphs: [
          'События безопасности хранятся в журнале аудита, который могут читать администраторы: входы и неудачные попытки входа (с введённым e-mail), включение или выключение двухфакторного входа, добавление или удаление ключей доступа, смена пароля и роли, завершённые сессии, созданные или удалённые учётные записи, приглашения, изменения квоты хранилища, а также создание, использование или отзыв ссылок для обмена. Каждое событие содержит время, IP-адрес, кто действовал и в отношении кого.',
        ],
      },
      {
        heading: 'Загруженные файлы: публичные и приватные',
        paragraphs: [
          'Файлы, загруженные в файловое облако, хранятся на сервере вместе с исходным именем, размером, типом, контрольной суммой, тем, кто и когда их загрузил. Для изображений сервер делает небольшое превью (миниатюру), которое хранится столько же, сколько файл.',
          'Каждый файл публичный или приватный, и загрузивший его может в любой момент это изменить. Публичный файл любой посетитель может увидеть в списке и скачать. Приватный файл видят только загрузивший его и администраторы сайта; для всех остальных его нет в списках, а его адрес отвечает так, будто файла не существует.',
          'Всё, что вы загружаете, включая сохранения игр, засчитывается в вашу квоту хранилища, которую устанавливает владелец.',
        ],
      },
      {
        heading: 'Ссылки для обмена',
        paragraphs: [
          'Загрузивший файл (или администратор) может создать ссылку на него — в том числе на приватный файл. Любой, у кого есть ссылка, может скачать файл, пока ссылка не истечёт (через 7 дней, если не выбран другой срок, самое большее через год), не исчерпает лимит скачиваний или не будет отозвана. Ссылка может требовать пароль, который хранится только в виде хеша.',
          'Сайт считает скачивания по ссылке, и каждое скачивание записывается в журнал аудита со временем и IP-адресом.',
        ],
      },
      {
        heading: 'Игры и сохранения',
        paragraphs: [
          'Если вы вошли, страница игр хранит на сервере ваши сохранения (автосохранение и пять слотов для каждой игры, каждое со снимком экрана игры), избранные и недавние игры и ваше управление для каждой консоли, чтобы они были с вами и на другом устройстве. Любое сохранение вы можете удалить сами.',
          'Для гостя сохранения, избранные и недавние игры и управление остаются только в браузере.',
        ],
      },
      {
        heading: 'Данные в вашем браузере',
        paragraphs: [
          'Браузер хранит выбранный язык интерфейса («preferredLanguage»), пока вы в системе — токен доступа («token»), адреса незавершённых загрузок (чтобы большую загрузку можно было продолжить после перезагрузки страницы), а для гостя — ваши игры и сохранения.',
          'Сайт устанавливает один cookie, чтобы вы оставались в системе («refresh_token», недоступный скриптам), а когда вы открываете ссылку для обмена — два cookie только для этой ссылки (что вы ввели её пароль и что ваш визит засчитан). Сайт не использует рекламных или отслеживающих cookie.',
        ],
      },
      {
        heading: 'Сколько хранятся данные',
        paragraphs: [
          'Журнал активности и журнал аудита имеют ограниченный размер (по умолчанию 10 000 и 20 000 событий): когда журнал заполнен, самые старые события удаляются. Сессии завершаются, как описано выше. Данные учётной записи хранятся, пока запись не удалена. Загруженные файлы и их миниатюры хранятся, пока их не удалит администратор, а сохранения игр — пока их не удалите вы.',
        ],
      },
      {
        heading: 'Ваш выбор',
        paragraphs: [
          'На самом сайте вы можете сделать свои файлы приватными, отозвать ссылки для обмена, завершить сессии, включить или выключить двухфакторный вход и удалить сохранения игр, а в настройках браузера — в любой момент очистить хранилище сайта. Чтобы узнать, что о вас хранится, или удалить учётную запись, файлы или сохранения, свяжитесь с владельцем сайта по контактам внизу страницы.',
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
          'Keep your password secret: you are responsible for what is done with your account. Turning on two-factor sign-in or a passkey protects it better; keep your recovery codes somewhere safe, as they are the way back in when your authenticator is lost. The owner may suspend or remove accounts that break these terms.',
        ],
      },
      {
        heading: 'Uploaded files',
        paragraphs: [
          'Upload only files you have the right to share. Do not upload malware, unlawful content or other people’s personal data. A public file is visible to every visitor; a private one only to you and the site’s administrators. Anyone you give a share link to can download the file, also a private one, until the link expires or you withdraw it, so share links only with people you trust. Your storage may be limited by a quota, and the owner may remove any file without notice.',
        ],
      },
      {
        heading: 'Games',
        paragraphs: [
          'The emulators run games provided by the site owner. Play them for personal, non-commercial use and respect the rights of their authors. Save states kept in your account count towards your storage quota; they may not load after a game or its emulator has been updated.',
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
          'Тримайте пароль у таємниці: ви відповідаєте за дії з вашим обліковим записом. Двофакторний вхід або ключ доступу захищають його краще; зберігайте резервні коди в надійному місці — це шлях назад, якщо автентифікатор втрачено. Власник може призупинити або видалити облікові записи, що порушують ці умови.',
        ],
      },
      {
        heading: 'Завантажені файли',
        paragraphs: [
          'Завантажуйте лише файли, якими маєте право ділитися. Не завантажуйте шкідливе програмне забезпечення, незаконний вміст чи персональні дані інших людей. Публічний файл бачить кожен відвідувач, приватний — лише ви та адміністратори сайту. Будь-хто, кому ви дали посилання для обміну, може завантажити файл, зокрема приватний, доки посилання не спливе або ви його не відкличете, тож діліться посиланнями лише з тими, кому довіряєте. Ваше сховище може бути обмежене квотою, а власник може видалити будь-який файл без попередження.',
        ],
      },
      {
        heading: 'Ігри',
        paragraphs: [
          'Емулятори запускають ігри, які надає власник сайту. Грайте для особистого некомерційного використання й поважайте права їхніх авторів. Збереження у вашому обліковому записі зараховуються до квоти сховища; після оновлення гри чи емулятора вони можуть не завантажитися.',
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
          'Держите пароль в секрете: вы отвечаете за действия с вашей учётной записью. Двухфакторный вход или ключ доступа защищают её лучше; храните резервные коды в надёжном месте — это путь назад, если аутентификатор потерян. Владелец может приостановить или удалить учётные записи, нарушающие эти условия.',
        ],
      },
      {
        heading: 'Загруженные файлы',
        paragraphs: [
          'Загружайте только файлы, которыми вы вправе делиться. Не загружайте вредоносные программы, незаконный контент или персональные данные других людей. Публичный файл видит каждый посетитель, приватный — только вы и администраторы сайта. Любой, кому вы дали ссылку для обмена, может скачать файл, в том числе приватный, пока ссылка не истечёт или вы её не отзовёте, поэтому делитесь ссылками только с теми, кому доверяете. Ваше хранилище может быть ограничено квотой, а владелец может удалить любой файл без предупреждения.',
        ],
      },
      {
        heading: 'Игры',
        paragraphs: [
          'Эмуляторы запускают игры, которые предоставляет владелец сайта. Играйте для личного некоммерческого использования и уважайте права их авторов. Сохранения в вашей учётной записи засчитываются в квоту хранилища; после обновления игры или эмулятора они могут не загрузиться.',
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
