import { Link } from 'react-router';
import { EmptyState } from '../components/ui';

export default function NotFoundPage() {
  return (
    <>
      <h1 className="mb-4 text-xl font-semibold">Page not found</h1>
      <EmptyState title="There is nothing at this address.">
        <Link to="/" className="underline">
          Go to your boards
        </Link>
      </EmptyState>
    </>
  );
}
