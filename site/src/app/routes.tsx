import { isValidElement } from 'react';
import { matchRoutes, type Params, type RouteObject } from 'react-router';
import { appQueryClient } from '../lib/queryClient';
import { lazyPage, type LazyPage } from './lazyPage';
import { Layout } from './shell/Layout';

// Every page is a lazy route with its own chunk (anything else → not found).
const HomePage = lazyPage(() => import('../features/portfolio/pages/HomePage'));
const SkillsPage = lazyPage(() => import('../features/portfolio/pages/SkillsPage'));
const ToolsPage = lazyPage(() => import('../features/portfolio/pages/DevToolsPage'));
const CameraPage = lazyPage(() => import('../features/tools/pages/CameraPage'));
const MicrophonePage = lazyPage(() => import('../features/tools/pages/MicrophonePage'));
const IpPage = lazyPage(() => import('../features/tools/ip/IpPage'));
const ToneGeneratorPage = lazyPage(() => import('../features/tools/pages/ToneGeneratorPage'));
const ChatPage = lazyPage(() => import('../features/chat/pages/ChatPage'));
const GamesPage = lazyPage(() => import('../features/games/pages/GamesPage'));
const BlogPage = lazyPage(() => import('../features/blog/pages/BlogPage'));
const ArticlePage = lazyPage(() => import('../features/blog/pages/ArticlePage'));
const EditorPage = lazyPage(() => import('../features/blog/pages/EditorPage'));
const FileCloudPage = lazyPage(() => import('../features/files/pages/FileCloudPage'));
const FileDetailPage = lazyPage(() => import('../features/files/pages/FileDetailPage'));
const SharePage = lazyPage(() => import('../features/files/shares/SharePage'));
const ProfilePage = lazyPage(() => import('./ProfileRoute'));
const DownloadsPage = lazyPage(() => import('../features/downloads/pages/DownloadsPage'));
const DownloadPage = lazyPage(() => import('../features/downloads/pages/DownloadPage'));
const PortfolioEditorPage = lazyPage(() => import('../features/portfolio/editor/PortfolioEditorPage'));
const PrivacyPage = lazyPage(() => import('../features/legal/pages/PrivacyPage'));
const TermsPage = lazyPage(() => import('../features/legal/pages/TermsPage'));
const ForumPage = lazyPage(() => import('../features/forum/pages/ForumPage'));
const ForumCategoryPage = lazyPage(() => import('../features/forum/pages/CategoryPage'));
const ForumThreadPage = lazyPage(() => import('../features/forum/pages/ThreadPage'));
const ModerationPage = lazyPage(() => import('../features/forum/pages/ModerationPage'));
const ContactPage = lazyPage(() => import('../features/social/pages/ContactRoute'));
const SetupPage = lazyPage(() => import('../features/setup/pages/SetupPage'));
const ForgotPasswordPage = lazyPage(() => import('../features/auth/reset/ForgotPasswordPage'));
const ResetPasswordPage = lazyPage(() => import('../features/auth/reset/ResetPasswordPage'));
const VerifyEmailPage = lazyPage(() => import('../features/auth/verify/VerifyEmailPage'));
const NotFoundPage = lazyPage(() => import('./NotFoundPage'));

/**
 * A route's `handle`: what the page shows first, asked for at start-up together with its chunk
 * (preloadRoute), so the request does not wait for the shell and the page to render. The page's
 * own useQuery then finds it in flight or done.
 */
interface RouteHandle {
  prefetch: (params: Params, pathname: string) => Promise<unknown>;
}

const homeData: RouteHandle = {
  prefetch: () =>
    import('../features/portfolio/profile/useProfile').then((m) => appQueryClient.prefetchQuery(m.profileQuery)),
};

// The article and the first page of its comments: both are asked for at once, so the comments
// are not a request that starts only once the article is on the screen.
const articleData: RouteHandle = {
  prefetch: ({ id = '' }) =>
    Promise.all([import('../features/blog/api'), import('../features/blog/comments/api')]).then(([blog, comments]) => {
      const query = blog.articleQuery(id);
      if (query.enabled === false) return undefined;
      return Promise.all([
        appQueryClient.prefetchQuery(query),
        appQueryClient.prefetchInfiniteQuery(comments.commentsQuery(Number(id))),
      ]);
    }),
};

const downloadsData: RouteHandle = {
  prefetch: (_params, pathname) =>
    import('../features/downloads/api').then((m) =>
      appQueryClient.prefetchQuery(m.downloadListQuery(m.firstListParams(m.sectionOf(pathname)))),
    ),
};

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { index: true, element: <HomePage />, handle: homeData },
      { path: 'skills', element: <SkillsPage /> },
      { path: 'tools', element: <ToolsPage /> },
      { path: 'tools/camera', element: <CameraPage /> },
      { path: 'tools/microphone', element: <MicrophonePage /> },
      { path: 'tools/ip', element: <IpPage /> },
      { path: 'tools/tone_generator', element: <ToneGeneratorPage /> },
      { path: 'chat', element: <ChatPage /> },
      { path: 'games', element: <GamesPage /> },
      { path: 'blog', element: <BlogPage /> },
      { path: 'blog/:id', element: <ArticlePage />, handle: articleData },
      { path: 'blog/new', element: <EditorPage /> },
      { path: 'blog/:id/edit', element: <EditorPage /> },
      { path: 'filecloud', element: <FileCloudPage /> },
      { path: 'filecloud/:fileId', element: <FileDetailPage /> },
      { path: 's/:token', element: <SharePage /> },
      { path: 'programs', element: <DownloadsPage />, handle: downloadsData },
      { path: 'programs/:slug', element: <DownloadPage /> },
      { path: 'alavar', element: <DownloadsPage />, handle: downloadsData },
      { path: 'alavar/:slug', element: <DownloadPage /> },
      { path: 'profile', element: <ProfilePage /> },
      { path: 'profile/portfolio', element: <PortfolioEditorPage /> },
      { path: 'privacy', element: <PrivacyPage /> },
      { path: 'terms', element: <TermsPage /> },
      { path: 'forum', element: <ForumPage /> },
      { path: 'forum/c/:id', element: <ForumCategoryPage /> },
      { path: 'forum/t/:id', element: <ForumThreadPage /> },
      { path: 'forum/moderation', element: <ModerationPage /> },
      { path: 'contact', element: <ContactPage /> },
      { path: 'setup', element: <SetupPage /> },
      { path: 'forgot-password', element: <ForgotPasswordPage /> },
      { path: 'reset-password', element: <ResetPasswordPage /> },
      { path: 'verify-email', element: <VerifyEmailPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/** The lazy page that renders at pathname (the not-found page for an unknown path). */
export function pageFor(pathname: string): LazyPage | null {
  const element = matchRoutes(routes, pathname)?.at(-1)?.route.element;
  const type: unknown = isValidElement(element) ? element.type : null;
  return typeof type === 'object' && type !== null && 'preload' in type ? (type as LazyPage) : null;
}

/**
 * Starts loading the chunk of the page at pathname, and the data it shows first where its route
 * names it. Called at start-up, before the language is known and the shell renders, so the page's
 * code and data arrive alongside instead of after them.
 */
export function preloadRoute(pathname: string): void {
  pageFor(pathname)
    ?.preload()
    .catch(() => undefined); // the render tries again and shows the page error
  const match = matchRoutes(routes, pathname)?.at(-1);
  const handle = match?.route.handle as RouteHandle | undefined;
  handle?.prefetch(match!.params, pathname).catch(() => undefined); // the page's own query reports errors
}
