import { ResetPasswordForm } from '../../features/auth/components/reset-password-form';

export default function ResetPasswordRoute() {
  return (
    <main className="page page--narrow">
      <h1>Reset password</h1>
      <ResetPasswordForm />
    </main>
  );
}
