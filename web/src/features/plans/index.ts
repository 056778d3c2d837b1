// The hand-built plan pages (view kind `plans`) and Review Selections (view kind `review`).
// Import lazily: `lazy(() => import('@/features/plans').then((m) => ({ default: m.PlansPage })))`.
export { PlansPage, type PlansPageProps } from './components/plans-page';
export { ReviewSelectionsPage, type ReviewSelectionsPageProps } from './components/review-selections-page';
export { PlanCard } from './components/plan-card';
