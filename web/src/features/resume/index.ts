export { SaveForLater, offersSaveForLater } from './components/save-for-later';
