import SubscribeScreen from '../features/billing/SubscribeScreen';

/** /subscribe: plans and subscription management (the route guard sends visitors to /login). */
export default function Subscribe() {
  return <SubscribeScreen />;
}
