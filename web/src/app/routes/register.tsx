import { RegisterForm } from '../../features/auth/components/register-form';

export default function RegisterRoute() {
  return (
    <main className="page page--narrow">
      <h1>Register</h1>
      <RegisterForm />
    </main>
  );
}
